// Command sleeplen is sleep's race with the read after len of a channel
// the writer holds: len of a shared channel is a scheduling point when
// race detection is on (the writer's closure is shared when it starts),
// so the counterexample's transitions are not those of a run without it.
package main

import "time"

var ready bool

func main() {
	c := make(chan int, 1)
	go func() {
		ready = true // races with main's read
		c <- 1
	}()
	time.Sleep(10 * time.Millisecond)
	n := len(c)
	if !ready || n != 1 {
		panic("not ready after the sleep")
	}
}
