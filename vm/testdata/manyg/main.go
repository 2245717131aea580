// 1,000 goroutines block on a channel (and 100 on a mutex) while two
// others exchange os.Args[1] messages: the cost of a transition with many
// live goroutines (vm/bench_test.go BenchmarkManyGoroutines).
package main

import (
	"os"
	"strconv"
	"sync"
)

func main() {
	n, _ := strconv.Atoi(os.Args[1])
	block := make(chan int)
	var mu sync.Mutex
	var wg sync.WaitGroup
	mu.Lock()
	for i := 0; i < 1000; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-block
		}()
	}
	for i := 0; i < 100; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			mu.Lock()
			mu.Unlock()
		}()
	}
	ping, pong := make(chan int), make(chan int)
	go func() {
		for v := range ping {
			pong <- v
		}
	}()
	for i := 0; i < n; i++ {
		ping <- i
		<-pong
	}
	close(ping)
	close(block)
	mu.Unlock()
	wg.Wait()
}
