// Package confirm holds one warning of each verdict of gmc confirm: a
// lock-order cycle two goroutines close (confirmed), one a gate lock
// keeps from closing (infeasible), one in code no test calls (unreached),
// a reachability assertion behind a loop too long to search (unknown), and
// go vet's and staticcheck's WaitGroup.Add-inside warnings, reached in
// every run (confirmed), and staticcheck's deferred Lock (confirmed: the
// test blocks forever). TestABBA deadlocks under go test in some runs,
// TestDeferLock in every run; the others pass.
package confirm

import (
	"sync"
	"testing"
)

var a, b, gate, c, d, e, f sync.Mutex

func TestABBA(t *testing.T) {
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); a.Lock(); b.Lock(); b.Unlock(); a.Unlock() }()
	go func() { defer wg.Done(); b.Lock(); a.Lock(); a.Unlock(); b.Unlock() }()
	wg.Wait()
}

func TestGated(t *testing.T) {
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		gate.Lock()
		c.Lock()
		d.Lock()
		d.Unlock()
		c.Unlock()
		gate.Unlock()
	}()
	go func() {
		defer wg.Done()
		gate.Lock()
		d.Lock()
		c.Lock()
		c.Unlock()
		d.Unlock()
		gate.Unlock()
	}()
	wg.Wait()
}

// unused takes e and f in both orders; no test calls it.
func unused() {
	go func() { e.Lock(); f.Lock(); f.Unlock(); e.Unlock() }()
	f.Lock()
	e.Lock()
	e.Unlock()
	f.Unlock()
}

func TestLong(t *testing.T) {
	var mu sync.Mutex
	n := 0
	var wg sync.WaitGroup
	for g := 0; g < 2; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 1000000; i++ {
				mu.Lock()
				n++
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if n != 2000000 {
		t.Log("lost") //gmc:unreachable
	}
}

// TestAddInside calls WaitGroup.Add inside the goroutine it counts (go
// vet's waitgroup check): reached in every run, a misuse confirmed.
func TestAddInside(t *testing.T) {
	var wg sync.WaitGroup
	done := make(chan bool)
	go func() {
		wg.Add(1)
		defer wg.Done()
		done <- true
	}()
	<-done
	wg.Wait()
}

// TestDeferLock defers Lock where Unlock was meant (staticcheck SA2003):
// the deferred Lock blocks forever when the test returns.
func TestDeferLock(t *testing.T) {
	var mu sync.Mutex
	mu.Lock()
	defer mu.Lock()
}
