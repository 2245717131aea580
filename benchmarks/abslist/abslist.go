// Command abslist is the AbsList benchmark of the main seed (Fig. 3.1;
// Tables 3.1, 3.2, 4.1), a race in JDK 1.4's AbstractList.equals reached
// through a synchronized Vector. Two Vectors l1 and l2 start equal. Every
// goroutine is an AThread of Fig. 3.1: if its condition holds it adds an
// element to l2, and then it calls l1.Equals(l2). Equals holds l1's lock and
// walks l2 with l2's iterator, which reads l2's modification count without
// l2's lock (a data race) and panics with ConcurrentModificationException
// when another goroutine's Add lands between two steps of the walk.
//
// Usage:
//
//	abslist [comparers [adders]]
//
// comparers goroutines only compare; adders goroutines add, then compare.
// The defaults are 1 and 7 (the seed's AbsList(1,7)). Comparers are started
// first and main waits for all goroutines.
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
	l1.Equals(l2) // BUG: walks l2 without l2's lock while another goroutine adds to it
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
		fmt.Fprintln(os.Stderr, "usage: abslist [comparers [adders]]")
		os.Exit(2)
	}
	return n
}
