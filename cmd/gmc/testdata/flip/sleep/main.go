// Command sleep orders a write and a read by a sleep alone: the reader
// sleeps, expecting the writer to be done by then, and fails if it is not.
// Under virtual time the writer always finishes first (a timer fires only
// when every goroutine is blocked); a writer delayed for longer than the
// sleep, as the OS may delay any goroutine, leaves the reader to fail.
package main

import "time"

var ready bool

func main() {
	go func() {
		ready = true // races with main's read
	}()
	time.Sleep(10 * time.Millisecond)
	if !ready {
		panic("not ready after the sleep")
	}
}
