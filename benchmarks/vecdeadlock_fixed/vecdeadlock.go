// Command vecdeadlock_fixed is the repaired twin of the vecdeadlock
// benchmark: each goroutine appends a snapshot of the other Vector, taken by
// ToArray before AddAll, so no goroutine holds one Vector's lock while it
// waits for the other's.
//
// Usage:
//
//	vecdeadlock_fixed [forward [backward]]
//
// The defaults are 1 and 9.
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
			v1.AddAll(collections.NewVector(v2.ToArray()...))
		}()
	}
	for range backward {
		wg.Add(1)
		go func() {
			defer wg.Done()
			v2.AddAll(collections.NewVector(v1.ToArray()...))
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
		fmt.Fprintln(os.Stderr, "usage: vecdeadlock_fixed [forward [backward]]")
		os.Exit(2)
	}
	return n
}
