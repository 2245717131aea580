// A WaitGroup reused correctly: each round starts after the previous
// round's Wait returned, with two workers and two waiters per round.
package main

import "sync"

func main() {
	var wg sync.WaitGroup
	for range 2 {
		wg.Add(2)
		for range 2 {
			go wg.Done()
		}
		done := make(chan bool)
		go func() {
			wg.Wait()
			done <- true
		}()
		wg.Wait()
		<-done
	}
}
