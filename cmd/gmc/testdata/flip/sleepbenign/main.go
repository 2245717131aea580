// Command sleepbenign orders two writes of the same value by a sleep:
// either order leaves the flag set, so the race cannot break anything.
package main

import "time"

var ready bool

func main() {
	done := make(chan bool)
	go func() {
		ready = true // races with main's write of the same value
		done <- true
	}()
	time.Sleep(10 * time.Millisecond)
	ready = true
	<-done
	if !ready {
		panic("not ready")
	}
}
