// Command seqreach has calls, go statements, defers, closures and
// initializers for slice's SeqReaches test.
package main

import (
	"fmt"
	"sync"
)

var table = build()

func build() map[string]int { return map[string]int{"a": leaf()} }

func init() { setup() }

func setup() { table["b"] = leaf() }

func leaf() int { return len(names) }

var names = []string{"x"}

type worker struct{ mu sync.Mutex }

func (w *worker) run(ch chan int) {
	defer w.done()
	w.mu.Lock()
	ch <- helper()
	w.mu.Unlock()
}

func (w *worker) done() { fmt.Println("done") }

func helper() int { return 1 }

func spawn(w *worker, ch chan int) {
	go w.run(ch)
	f := func() { go after(ch) }
	f()
}

func after(ch chan int) { <-ch }

func main() {
	w := &worker{}
	ch := make(chan int)
	spawn(w, ch)
	<-ch
	fmt.Println(helper())
}
