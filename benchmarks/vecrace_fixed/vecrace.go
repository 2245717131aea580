// Command vecrace_fixed is the repaired twin of the vecrace benchmark: the
// goroutine that compares v1 with v2 compares it with a snapshot of v2,
// taken by v2.ToArray under v2's lock, so nothing walks v2 without its lock.
// FuzzVecRace in the test file is the repaired data-choice variant.
//
// Usage:
//
//	vecrace_fixed [iterators [modifiers]]
//
// The defaults are 1 iterator and 1 modifier.
package main

import (
	"fmt"
	"os"
	"strconv"
	"sync"

	"github.com/gmc-go/gmc/benchmarks/collections"
)

func iterate(v1, v2 *collections.Vector) {
	v1.ContainsAll(collections.NewVector(v2.ToArray()...))
}

func modify(v2 *collections.Vector) {
	v2.Clear()
	v2.Add(1)
	v2.Add(2)
	v2.Add(3)
}

// race runs two goroutines on two Vectors holding 1, 2, 3: x chooses what
// the first does with v1 (only x >= 20 compares it with v2), y what the
// second does with v2 (only 101 <= y <= 103 modifies it).
func race(x, y int) {
	v1 := collections.NewVector(1, 2, 3)
	v2 := collections.NewVector(1, 2, 3)
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		switch {
		case x < 0:
			v1.Clear()
		case x < 10:
			v1.Add(x)
		case x < 20:
			v1.Contains(x)
		default:
			v1.Equals(collections.NewVector(v2.ToArray()...))
		}
	}()
	go func() {
		defer wg.Done()
		switch {
		case y < 0:
			v2.Size()
		case y <= 100:
			v2.Contains(y)
		default:
			v2.Remove(y - 100) // modifies v2 only if y-100 is 1, 2 or 3
		}
	}()
	wg.Wait()
}

func main() {
	iterators, modifiers := arg(1, 1), arg(2, 1)
	v1 := collections.NewVector(1, 2, 3)
	v2 := collections.NewVector(1, 2, 3)
	var wg sync.WaitGroup
	for range iterators {
		wg.Add(1)
		go func() {
			defer wg.Done()
			iterate(v1, v2)
		}()
	}
	for range modifiers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			modify(v2)
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
		fmt.Fprintln(os.Stderr, "usage: vecrace_fixed [iterators [modifiers]]")
		os.Exit(2)
	}
	return n
}
