// Package elem, in directory elem_fixed, is the repaired twin of the Fig.
// 2.2 example: reset puts e back to its initial value 1, which thread A's
// check accepts. The fuzz target is FuzzElem.
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
	el.e = 1
}

// check is Fig. 2.2(a)'s check, called with el locked.
func (el *Element) check() {
	if el.e > 9 {
		panic("elem: bug found: elem.e > 9")
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
