// Command symmetry starts three identical workers that count under a
// mutex (unlocked by a defer) and wait at a gate main closes: states that
// differ only by which worker went first hash equally (vm's
// TestHashSymmetry). With an argument, main reads its own stack first, so
// the program has seen goroutine ids.
package main

import (
	"os"
	"runtime"
	"sync"
)

var (
	mu   sync.Mutex
	n    int
	gate = make(chan struct{})
)

func count() {
	mu.Lock()
	defer mu.Unlock()
	n++
}

func main() {
	if len(os.Args) > 1 {
		buf := make([]byte, 1024)
		runtime.Stack(buf, false)
	}
	var wg sync.WaitGroup
	for i := 0; i < 3; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			count()
			<-gate
		}()
	}
	close(gate)
	wg.Wait()
	if n != 3 {
		panic("lost count")
	}
}
