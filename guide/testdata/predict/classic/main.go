// Two critical sections on one lock that touch different variables: the
// run that takes main's first orders its write of x before the other
// goroutine's read through the lock (happens-before), but the critical
// sections can run in the other order, and then the accesses race.
package main

import "sync"

var (
	mu   sync.Mutex
	x    int
	a, b int
)

func main() {
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		mu.Lock()
		a++
		mu.Unlock()
		if x == 7 { // want "race"
			panic("unreachable")
		}
	}()
	x = 1 // want "race"
	mu.Lock()
	b++
	mu.Unlock()
	wg.Wait()
}
