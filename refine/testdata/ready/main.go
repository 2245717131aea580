// Command ready needs a refinement: the consumer fails only if the
// producer, another goroutine, stored ready = 1 before the consumer's
// check, and both hold mu there. The backward slice of the panic has no
// definition of ready that reaches the check sequentially.
package main

import "sync"

var (
	mu    sync.Mutex
	ready int
)

func producer(wg *sync.WaitGroup) {
	defer wg.Done()
	mu.Lock()
	ready = 1
	mu.Unlock()
}

func consumer(wg *sync.WaitGroup, n int) {
	defer wg.Done()
	mu.Lock()
	if ready == 1 {
		panic("ready: consumer saw the producer's store") // want: the branch above needs a refinement
	}
	mu.Unlock()
	if n > 100 {
		panic("ready: n > 100") // the branch above reads only a parameter
	}
}

func main() {
	var wg sync.WaitGroup
	wg.Add(2)
	go consumer(&wg, 1)
	go producer(&wg)
	wg.Wait()
}
