// Command abslist_fixed is the repaired twin of the AbsList benchmark,
// with the fix the seed suggests for Fig. 3.1: the AThreads call
// l2.Equals(l1), so the list that is walked without its lock is l1, which no
// goroutine modifies.
//
// Usage:
//
//	abslist_fixed [comparers [adders]]
//
// The defaults are 1 and 7.
package main

import (
	"fmt"
	"os"
	"strconv"
	"sync"

	"github.com/gmc-go/gmc/benchmarks/collections"
)

// aThread is the run method of Fig. 3.1(b).
func aThread(l1, l2 collections.List, add bool, x int) {
	if add {
		l2.Add(x)
	}
	l2.Equals(l1)
}

func main() {
	comparers, adders := arg(1, 1), arg(2, 7)
	l1 := collections.NewVector(1, 2, 3)
	l2 := collections.NewVector(1, 2, 3)
	var wg sync.WaitGroup
	for range comparers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			aThread(l1, l2, false, 0)
		}()
	}
	for i := range adders {
		wg.Add(1)
		go func() {
			defer wg.Done()
			aThread(l1, l2, true, 4+i)
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
		fmt.Fprintln(os.Stderr, "usage: abslist_fixed [comparers [adders]]")
		os.Exit(2)
	}
	return n
}
