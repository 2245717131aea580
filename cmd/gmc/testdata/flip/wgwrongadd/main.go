// Command wgwrongadd adds to a WaitGroup in the goroutines that wait on
// it, as Go's race suite's TestRaceWaitGroupWrongAdd: main's Wait races
// with the first Add (the race detector models Wait as a write that
// must follow it), but every order of the two ends the same way. main
// wakes before the goroutines' sleeps end, so its Wait is the first
// operation of the transition after its sleep — the flip's set-up must
// see it start waiting there too.
package main

import (
	"sync"
	"time"
)

func main() {
	c := make(chan bool, 2)
	var wg sync.WaitGroup
	for range 2 {
		go func() {
			wg.Add(1)
			time.Sleep(100 * time.Millisecond)
			wg.Done()
			c <- true
		}()
	}
	time.Sleep(50 * time.Millisecond)
	wg.Wait()
	<-c
	<-c
}
