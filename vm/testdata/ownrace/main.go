// Package main is the program of vm TestRaceSummaryReductions: main
// writes a cell of an object it then hands to worker w, after starting
// worker v; w alone reaches the object from then on.
package main

import "sync"

type box struct{ x int }

var shared int

// reset writes shared, so shared is not immutable (vm's immutable.go would
// leave a global no code writes after initialization out of the hash, its
// reads with it: they cannot race). Nothing calls it.
func reset() { shared = 0 }

func main() {
	var wg sync.WaitGroup
	var mu sync.Mutex
	wg.Add(2)
	go func() { // v
		defer wg.Done()
		_ = shared
	}()
	o := &box{}
	o.x = 1 // main's write: v's clock does not cover it, w's does
	mu.Lock()
	mu.Unlock() // (a release: main's epoch ticks)
	_ = shared
	go func(p *box) { // w
		defer wg.Done()
		_ = shared
		p.x++
	}(o)
	wg.Wait()
	mu.Lock() // (mu stays reachable: its clock covers main's epoch before the Unlock)
	mu.Unlock()
}
