// Main reads x plainly, then atomically; a goroutine that woke from a
// sleep (no synchronization with main) stores x atomically. The atomic
// load does not make the plain read redundant: the atomic store races
// with the plain read (as go test -race reports), in every schedule, since
// the timer fires only once main blocks.
package main

import (
	"sync/atomic"
	"time"
)

var x int64

func main() {
	done := make(chan bool)
	go func() {
		time.Sleep(time.Millisecond)
		atomic.StoreInt64(&x, 1)
		done <- true
	}()
	v := x
	if atomic.LoadInt64(&x) != v {
		panic("changed")
	}
	<-done
}
