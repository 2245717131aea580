// The other goroutine reads x only after it saw, in its critical
// section, the flag main set in its own after writing x: the critical
// sections conflict on the flag, which orders them (WCP's rule (a)), and
// no race is predicted; none exists.
package main

import "sync"

var (
	mu    sync.Mutex
	x     int
	ready bool
)

func main() {
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			mu.Lock()
			r := ready
			mu.Unlock()
			if r {
				break
			}
		}
		if x == 7 {
			panic("unreachable")
		}
	}()
	x = 1
	mu.Lock()
	ready = true
	mu.Unlock()
	wg.Wait()
}
