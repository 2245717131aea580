// Command arylist is the AryList benchmark of the main seed (Tables 3.1,
// 3.2, 4.1), a race in JDK 1.4's ArrayList used through
// Collections.synchronizedList. Two synchronized ArrayLists l1 and l2 start
// equal. Checkers call l1.ContainsAll(l2): the wrapper holds l1's mutex and
// walks l2 with l2's iterator, which is the wrapped ArrayList's own and takes
// no lock. Modifiers add an element to l2 and remove it again under l2's
// mutex. The walk races with them (a data race on the ArrayList's fields)
// and fails with ConcurrentModificationException, or index out of range
// when l2 shrinks between HasNext and Next.
//
// Usage:
//
//	arylist [checkers [modifiers]]
//
// The defaults are 1 checker and 5 modifiers (the seed's AryList(1,5)).
// Checkers are started first and main waits for all goroutines.
package main

import (
	"fmt"
	"os"
	"strconv"
	"sync"

	"github.com/gmc-go/gmc/benchmarks/collections"
)

func check(l1, l2 collections.List) {
	l1.ContainsAll(l2) // BUG: walks l2's ArrayList with no lock while modifiers change it
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
		fmt.Fprintln(os.Stderr, "usage: arylist [checkers [modifiers]]")
		os.Exit(2)
	}
	return n
}
