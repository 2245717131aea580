// Command vecdeadlock is the Deadlock benchmark of Table 3.1 of the main
// seed: the lock-order deadlock of JDK 1.4's Vector.addAll (Williams et al.,
// 2005). v1.AddAll(v2) holds v1's lock while v2.ToArray takes v2's, and
// v2.AddAll(v1) takes the same two locks in the other order; if each gets
// its first lock, both wait forever.
//
// Usage:
//
//	vecdeadlock [forward [backward]]
//
// forward goroutines call v1.AddAll(v2) and backward goroutines call
// v2.AddAll(v1). The defaults are 1 and 9 (the seed's Deadlock(1,9)).
// Forward goroutines are started first and main waits for all goroutines.
package main

import (
	"fmt"
	"os"
	"strconv"
	"sync"

	"github.com/gmc-go/gmc/benchmarks/collections"
)

func main() {
	forward, backward := arg(1, 1), arg(2, 9)
	v1 := collections.NewVector(1, 2, 3)
	v2 := collections.NewVector(4, 5, 6)
	var wg sync.WaitGroup
	for range forward {
		wg.Add(1)
		go func() {
			defer wg.Done()
			v1.AddAll(v2) // BUG: holds v1 and waits for v2 while a backward goroutine holds v2 and waits for v1
		}()
	}
	for range backward {
		wg.Add(1)
		go func() {
			defer wg.Done()
			v2.AddAll(v1) // BUG: holds v2 and waits for v1 while a forward goroutine holds v1 and waits for v2
		}()
	}
	wg.Wait()
}

// arg returns os.Args[i] as an integer, or def when there is no such argument.
func arg(i, def int) int {
	if i >= len(os.Args) {
		return def
	}
	n, err := strconv.Atoi(os.Args[i])
	if err != nil {
		fmt.Fprintln(os.Stderr, "usage: vecdeadlock [forward [backward]]")
		os.Exit(2)
	}
	return n
}
