// A WaitGroup reused before the previous Wait returned: the worker's Done
// releases main's Wait, and the worker's next Add starts a new round
// before main runs again. Go's Wait then panics ("sync: WaitGroup is
// reused before previous Wait has returned"); when main runs first, or
// the worker ends before main waits, the program ends normally.
package main

import "sync"

func main() {
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		wg.Done()
		wg.Add(1)
		wg.Done()
	}()
	wg.Wait()
}
