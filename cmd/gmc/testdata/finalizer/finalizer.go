// Package finalizer stops a ticker goroutine from a finalizer, which only
// the runtime calls (runtime.SetFinalizer): the send in stopIt is reached
// from the test through a function value, in the package's test variant.
package finalizer

import (
	"runtime"
	"time"
)

// C owns a ticker goroutine.
type C struct{ stop chan bool }

func stopIt(c *C) { c.stop <- true }

func run(c *C) {
	t := time.NewTicker(time.Second)
	defer t.Stop()
	for {
		select {
		case <-t.C:
		case <-c.stop:
			return
		}
	}
}

// New starts the ticker goroutine when d > 0.
func New(d time.Duration) *C {
	c := &C{stop: make(chan bool)}
	if d > 0 {
		go run(c)
		runtime.SetFinalizer(c, stopIt)
	}
	return c
}
