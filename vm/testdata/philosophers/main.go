// Dining philosophers with ordered forks (no deadlock), channels and a select.
package main

import (
	"fmt"
	"sync"
)

func main() {
	const n = 3
	forks := make([]sync.Mutex, n)
	done := make(chan int, n)
	quit := make(chan struct{})
	for i := 0; i < n; i++ {
		go func(i int) {
			a, b := i, (i+1)%n
			if a > b {
				a, b = b, a
			}
			forks[a].Lock()
			forks[b].Lock()
			forks[b].Unlock()
			forks[a].Unlock()
			select {
			case done <- i:
			case <-quit:
			}
		}(i)
	}
	sum := 0
	for i := 0; i < n; i++ {
		sum += <-done
	}
	close(quit)
	fmt.Println("sum", sum)
}
