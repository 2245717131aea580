// The example of the main seed's Figure 2.2 in Go: thread A checks elem.e
// under the lock; thread B, for an input x > 18, resets it. The target is the
// panic in check (line 10 of Fig. 2.2(a)).
package main

import (
	"os"
	"sync"
)

type Element struct {
	mu sync.Mutex
	e  int
}

func NewElement() *Element {
	return &Element{e: 1}
}

func (el *Element) reset() {
	el.e = 11
}

func threadA(elem *Element, done chan bool) {
	elem.mu.Lock() // l1
	check(elem)    // l2
	elem.mu.Unlock()
	done <- true
}

func check(elem *Element) {
	if elem.e > 9 { // l4
		panic("exception") // l5: the target
	}
}

func threadB(elem *Element, x int, done chan bool) {
	if x > 18 {
		elem.mu.Lock()
		elem.reset()
		elem.mu.Unlock()
	}
	done <- true
}

func main() {
	elem := NewElement()
	done := make(chan bool)
	go threadA(elem, done)
	go threadB(elem, len(os.Args)*10, done)
	<-done
	<-done
}
