// As classic, but a channel orders main's write before the other
// goroutine's read: a hard ordering no reordering may break, so no race
// is predicted and none exists.
package main

import "sync"

var (
	mu   sync.Mutex
	x    int
	a, b int
)

func main() {
	var wg sync.WaitGroup
	ch := make(chan bool)
	wg.Add(1)
	go func() {
		defer wg.Done()
		mu.Lock()
		a++
		mu.Unlock()
		<-ch
		if x == 7 {
			panic("unreachable")
		}
	}()
	x = 1
	mu.Lock()
	b++
	mu.Unlock()
	ch <- true
	wg.Wait()
}
