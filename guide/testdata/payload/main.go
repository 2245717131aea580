// Command payload is the payload abstraction's test program
// (guide/payload_test.go): three goroutines append distinct values to a
// locked list and count their additions; nothing reads the values unless
// an argument is given: "atomic" hands an abstracted count to an atomic
// add, any other makes the first value decide a panic.
package main

import (
	"os"
	"sync"
	"sync/atomic"
)

type list struct {
	mu    sync.Mutex
	elems []int
	adds  int
	tally int64
}

func (l *list) add(x int) {
	l.mu.Lock()
	l.adds++
	l.elems = append(l.elems, x)
	l.mu.Unlock()
}

func main() {
	l := &list{}
	var wg sync.WaitGroup
	for i := range 3 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			l.add(10 * (i + 1))
		}()
	}
	wg.Wait()
	if len(os.Args) > 1 && os.Args[1] == "atomic" {
		l.tally = int64(len(l.elems)) * 5
		atomic.AddInt64(&l.tally, 1) // a native reads the cell
		return
	}
	if len(os.Args) > 1 && l.elems[0] == 30 {
		panic("the last adder came first")
	}
	if len(l.elems) != 3 {
		panic("an element was lost")
	}
}
