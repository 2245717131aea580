// The counter is protected by a mutex: no race.
package main

import "sync"

var (
	mu      sync.Mutex
	counter int
)

func main() {
	var wg sync.WaitGroup
	for i := 0; i < 3; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			mu.Lock()
			counter++
			mu.Unlock()
		}()
	}
	wg.Wait()
	println(counter)
}
