// Package workers holds small models of golang.org/x/sync's errgroup tests
// for measuring the bounded search's bound 0 (benchmarks/RESULTS.md,
// session 8): TestNxLy starts x workers, at most y at a time (a buffered
// channel as errgroup.SetLimit's semaphore), each counting itself in with
// an atomic add, sleeping and counting itself out (errgroup TestGoLimit:
// 1,025 workers, 10 at a time); TestTryN starts n senders on an unbuffered
// channel and one receiver (errgroup TestTryGo: 42).
package workers

import (
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

type group struct {
	wg  sync.WaitGroup
	sem chan struct{}
}

func (g *group) Go(f func()) {
	g.sem <- struct{}{}
	g.wg.Add(1)
	go func() {
		defer func() { <-g.sem; g.wg.Done() }()
		f()
	}()
}

func limited(t *testing.T, n, limit int) {
	g := &group{sem: make(chan struct{}, limit)}
	var active int32
	for i := 0; i < n; i++ {
		g.Go(func() {
			k := atomic.AddInt32(&active, 1)
			if k > int32(limit) {
				t.Errorf("%d active workers, limit %d", k, limit)
			}
			time.Sleep(time.Microsecond)
			atomic.AddInt32(&active, -1)
		})
	}
	g.wg.Wait()
}

func TestN8L4(t *testing.T)   { limited(t, 8, 4) }
func TestN20L6(t *testing.T)  { limited(t, 20, 6) }
func TestN30L10(t *testing.T) { limited(t, 30, 10) }

func senders(n int) {
	var wg sync.WaitGroup
	ch := make(chan struct{})
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ch <- struct{}{}
		}()
	}
	go func() {
		for i := 0; i < n; i++ {
			<-ch
		}
	}()
	wg.Wait()
}

func TestTry8(t *testing.T)  { senders(8) }
func TestTry16(t *testing.T) { senders(16) }
