// Package sym holds fuzz targets whose failures need particular inputs:
// the tests of the VM's symbolic execution. Each FuzzXxx says the error it
// must reach in a "want:" comment.
package sym

import "sync"

// Element is the shared object of the main seed's Fig. 2.2.
type Element struct {
	mu sync.Mutex
	e  int
}

// Run is Fig. 2.2: thread A fails if elem.e > 9; thread B sets it to 11
// only if x > 18.
func Run(x int) {
	el := &Element{e: 1}
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		el.mu.Lock()
		if el.e > 9 {
			panic("elem.e > 9")
		}
		el.mu.Unlock()
	}()
	go func() {
		defer wg.Done()
		if x > 18 {
			el.mu.Lock()
			el.e = 11
			el.mu.Unlock()
		}
	}()
	wg.Wait()
}
