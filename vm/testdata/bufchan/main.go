// Three goroutines send to a buffered channel that main then drains: every
// interleaving prints a permutation of 1 2 3 (vm/chan_test.go checks that
// states sharing a channel buffer never see each other's sends).
package main

import (
	"fmt"
	"sync"
)

func main() {
	ch := make(chan int, 3)
	var wg sync.WaitGroup
	for i := 1; i <= 3; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ch <- i
		}()
	}
	<-ch // one value out early: later sends append behind a resliced view
	wg.Wait()
	close(ch)
	for v := range ch {
		fmt.Print(v, " ")
	}
	fmt.Println()
}
