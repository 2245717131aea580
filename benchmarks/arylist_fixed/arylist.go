// Command arylist_fixed is the repaired twin of the AryList benchmark:
// checkers compare l1 with a snapshot of l2 taken by l2.ToArray under l2's
// mutex, so nothing walks l2's ArrayList without its lock.
//
// Usage:
//
//	arylist_fixed [checkers [modifiers]]
//
// The defaults are 1 checker and 5 modifiers.
package main

import (
	"fmt"
	"os"
	"strconv"
	"sync"

	"github.com/gmc-go/gmc/benchmarks/collections"
)

func check(l1, l2 collections.List) {
	l1.ContainsAll(collections.NewArrayList(l2.ToArray()...))
}

func modify(l2 collections.List, x int) {
	l2.Add(x)
	l2.Remove(x)
}

func main() {
	checkers, modifiers := arg(1, 1), arg(2, 5)
	l1 := collections.Synchronized(collections.NewArrayList(1, 2, 3))
	l2 := collections.Synchronized(collections.NewArrayList(1, 2, 3))
	var wg sync.WaitGroup
	for range checkers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			check(l1, l2)
		}()
	}
	for i := range modifiers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			modify(l2, 4+i)
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
		fmt.Fprintln(os.Stderr, "usage: arylist_fixed [checkers [modifiers]]")
		os.Exit(2)
	}
	return n
}
