// Command wgreuse reuses a WaitGroup as Go's race suite's
// TestRaceWaitGroupReuse does: each round, a helper goroutine waits on
// the WaitGroup, and main starts the next round (wg.Add) once its own
// Wait returned and a sleep passed. Main's Add races with the helper's
// Wait (the race detector models Wait as a write that must come first),
// and the order in which the Add comes first is harmful: the helper,
// released by the round's Done but not yet run, finds the WaitGroup in
// use again and panics ("sync: WaitGroup is reused before previous Wait
// has returned"), as Go's Wait does.
package main

import (
	"sync"
	"time"
)

func main() {
	done := make(chan bool, 2)
	var wg sync.WaitGroup
	for range 2 {
		wg.Add(1)
		go func() {
			time.Sleep(50 * time.Millisecond)
			wg.Done()
		}()
		go func() {
			wg.Wait()
			done <- true
		}()
		time.Sleep(100 * time.Millisecond)
		wg.Wait()
	}
	<-done
	<-done
}
