// Command wggo runs functions that block, through sync.WaitGroup.Go: a
// channel receive and a sync.Cond wait, each woken by main. gmc once ran
// the function inside the Go native to its end in one step: a blocking
// operation there did not block, the goroutine ended while still queued
// (smallnest/ringbuffer's Copy: a false deadlock, or an internal error when
// the Cond was later signalled).
package main

import (
	"fmt"
	"sync"
)

func main() {
	ch := make(chan int)
	var mu sync.Mutex
	c := sync.NewCond(&mu)
	ready := false
	var wg sync.WaitGroup
	wg.Go(func() {
		v := <-ch
		fmt.Println("received", v)
	})
	wg.Go(func() {
		mu.Lock()
		for !ready {
			c.Wait()
		}
		mu.Unlock()
		fmt.Println("woken")
	})
	ch <- 7
	mu.Lock()
	ready = true
	c.Broadcast()
	mu.Unlock()
	wg.Wait()
	fmt.Println("done")
}
