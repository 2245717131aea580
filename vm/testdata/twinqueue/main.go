// Command twinqueue starts identical workers that queue on a channel main
// made (the queue's order names them) and identical workers that each own
// a counter and share one of two others with a neighbour (they reference
// different objects): the twins of vm's TestHashRootsEquivalence.
package main

import "sync"

func main() {
	ch := make(chan int)
	var wg sync.WaitGroup
	for i := 0; i < 3; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-ch
		}()
	}
	shared := []*int{new(int), new(int)}
	for i := 0; i < 4; i++ {
		p, own := shared[i%2], new(int)
		wg.Add(1)
		go func() {
			defer wg.Done()
			*own++
			*p++
		}()
	}
	for i := 0; i < 3; i++ {
		ch <- i
	}
	wg.Wait()
}
