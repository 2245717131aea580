// Program namedresultracy assigns a named result that a goroutine reads,
// unordered with the read: a race (only the return's own store is not an
// access).
package main

import "sync"

func compute() (n int) {
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		_ = n + 1
		wg.Done()
	}()
	n = 5
	wg.Wait()
	return n
}

func main() { println(compute()) }
