// Program namedresult returns a named result that a goroutine it started
// still reads (concurrent-map's snapshot): `return out` stores nothing in
// compiled Go, so there is no race.
package main

import "sync"

func snapshot() (out []chan int) {
	out = make([]chan int, 2)
	var wg sync.WaitGroup
	wg.Add(2)
	for i := range out {
		go func(i int) {
			out[i] = make(chan int, 1)
			wg.Done()
			out[i] <- i
			close(out[i])
		}(i)
	}
	wg.Wait()
	return out
}

func main() {
	for _, ch := range snapshot() {
		for range ch {
		}
	}
}
