// Program handoff synchronizes two goroutines in every way the timeline
// draws: an unbuffered and a buffered channel, a mutex and a WaitGroup;
// then it leaks a goroutine blocked on a channel nobody sends on.
package main

import (
	"runtime"
	"sync"
)

func main() {
	ch := make(chan int)
	buf := make(chan int, 1)
	var mu sync.Mutex
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		mu.Lock()
		ch <- 1
		mu.Unlock()
		buf <- 2
	}()
	go func() {
		defer wg.Done()
		<-ch
		mu.Lock()
		mu.Unlock()
		<-buf
	}()
	wg.Wait()
	never := make(chan int)
	go func() { <-never }()
	for i := 0; i < 20; i++ {
		runtime.Gosched() // let it block: the process ends with main
	}
}
