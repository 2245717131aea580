// A table built by the package's initialization (a few thousand forced
// transitions: no other goroutine yet), then three workers whose order
// matters: main panics when they ran in the order 3, 2, 1 (one run in six
// of a uniform walk). The walks' runs after the first start at the first
// choice (guide TestWalkFork).
package main

import "sync"

var table [300]int

func init() {
	var mu sync.Mutex
	for i := range table {
		mu.Lock() // (a scheduling point, with no other goroutine to run)
		table[i] = i * i % 7
		mu.Unlock()
	}
}

func main() {
	var mu sync.Mutex
	var order []int
	var wg sync.WaitGroup
	for w := 1; w <= 3; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			mu.Lock()
			order = append(order, w+table[w]-table[w])
			mu.Unlock()
		}()
	}
	wg.Wait()
	if order[0] == 3 && order[1] == 2 && order[2] == 1 {
		panic("workers ran backwards")
	}
}
