// Package elem is the example of Fig. 2.2 of the main seed, the smallest
// error that needs both a schedule and an input. Thread A locks elem and
// checks it: if elem.e > 9 it fails. Thread B reads an input x and, only if
// x > 18, locks elem and resets it, setting e to 11. The failure needs
// x > 18 and B's reset to run before A's check. The fuzz target is FuzzElem.
package elem

import "sync"

// Element is the shared object of Fig. 2.2(c).
type Element struct {
	mu sync.Mutex
	e  int
}

// NewElement returns an Element with e = 1.
func NewElement() *Element {
	return &Element{e: 1}
}

func (el *Element) reset() {
	el.e = 11
}

// check is Fig. 2.2(a)'s check, called with el locked.
func (el *Element) check() {
	if el.e > 9 {
		panic("elem: bug found: elem.e > 9") // BUG: thread B reset elem before thread A checked it
	}
}

// Run runs threads A and B on a new Element with input x and waits for them.
func Run(x int) {
	elem := NewElement()
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { // thread A
		defer wg.Done()
		elem.mu.Lock()
		elem.check()
		elem.mu.Unlock()
	}()
	go func() { // thread B
		defer wg.Done()
		if x > 18 {
			elem.mu.Lock()
			elem.reset()
			elem.mu.Unlock()
		}
	}()
	wg.Wait()
}
