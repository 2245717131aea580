// Package verdicts has tests whose verdicts are definite: a sequential test
// (exhausted), a spin-lock counter (bounded or exhausted) and a lost update
// (an error).
package verdicts

import (
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
)

type spinLock struct{ v int32 }

func (l *spinLock) Lock() {
	for !atomic.CompareAndSwapInt32(&l.v, 0, 1) {
		runtime.Gosched()
	}
}
func (l *spinLock) Unlock() { atomic.StoreInt32(&l.v, 0) }

func TestSpin(t *testing.T) {
	var l spinLock
	n := 0
	var wg sync.WaitGroup
	for i := 0; i < 2; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			l.Lock()
			n++
			l.Unlock()
		}()
	}
	wg.Wait()
	if n != 2 {
		t.Fatal("lost update")
	}
}

func TestSeq(t *testing.T) {
	s := 0
	for i := 0; i < 10; i++ {
		s += i
	}
	if s != 45 {
		t.Fatal("bad")
	}
}

// TestLostUpdate increments without the lock: an interleaving loses an
// update and the test fails.
func TestLostUpdate(t *testing.T) {
	var n int32
	var wg sync.WaitGroup
	for i := 0; i < 2; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			v := atomic.LoadInt32(&n)
			runtime.Gosched()
			atomic.StoreInt32(&n, v+1)
		}()
	}
	wg.Wait()
	if atomic.LoadInt32(&n) != 2 {
		t.Fatal("lost update")
	}
}

// TestSpinMany runs five goroutines through the spin lock: too many
// interleavings to exhaust quickly (524,001 states with the symmetry of
// session 8), so the verdict states a bound.
func TestSpinMany(t *testing.T) {
	var l spinLock
	n := 0
	var wg sync.WaitGroup
	for i := 0; i < 5; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := 0; j < 3; j++ {
				l.Lock()
				n++
				l.Unlock()
			}
		}()
	}
	wg.Wait()
	if n != 15 {
		t.Fatal("lost update")
	}
}

// TestCloseWake reads a variable before a mutex handoff to the goroutine
// that closes the channel the test is parked on, then writes it: ordered
// by Unlock -> Lock -> close -> receive, no data race.
func TestCloseWake(t *testing.T) {
	running := true
	var mu sync.Mutex
	ready := make(chan struct{})
	cnt := 0
	go func() {
		_ = running
		mu.Lock()
		cnt++
		mu.Unlock()
	}()
	go func() {
		for {
			mu.Lock()
			if cnt == 1 {
				close(ready)
				mu.Unlock()
				return
			}
			mu.Unlock()
			runtime.Gosched()
		}
	}()
	<-ready
	running = false
}
