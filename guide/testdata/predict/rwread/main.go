// An RWMutex's write section before its read section orders them by
// happens-before (Unlock before the next RLock), but they touch different
// variables, so they can run in the other order: main's write of x
// before its section and the other goroutine's read after its own race.
package main

import "sync"

var (
	mu   sync.RWMutex
	x    int
	a, b int
)

func main() {
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		mu.RLock()
		_ = a + 1
		mu.RUnlock()
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
