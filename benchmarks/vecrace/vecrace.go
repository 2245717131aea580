// Command vecrace is the VecRace benchmark of the main seed (Tables 2.1,
// 2.2), a race on a synchronized Vector of JDK 1.4: Vector.ContainsAll and
// Vector.Equals hold the receiver's lock and walk the argument with its
// iterator, which reads the argument's modification count without the
// argument's lock. When another goroutine modifies the argument, that read
// is a data race, and the walk can panic with
// ConcurrentModificationException or, if the argument shrank, index out of
// range.
//
// The command runs iterators, which call v1.ContainsAll(v2), and modifiers,
// which clear v2 and fill it again.
//
// Usage:
//
//	vecrace [iterators [modifiers]]
//
// The defaults are 1 iterator and 1 modifier. Iterators are started first
// and main waits for all goroutines.
//
// The data-choice variant of the seed, with two integers that choose each
// goroutine's operation, is the fuzz target FuzzVecRace in this package's
// test file; its goroutines run race.
package main

import (
	"fmt"
	"os"
	"strconv"
	"sync"

	"github.com/gmc-go/gmc/benchmarks/collections"
)

func iterate(v1, v2 *collections.Vector) {
	v1.ContainsAll(v2) // BUG: walks v2 without v2's lock while a modifier changes it
}

func modify(v2 *collections.Vector) {
	v2.Clear()
	v2.Add(1)
	v2.Add(2)
	v2.Add(3)
}

// race runs two goroutines on two Vectors holding 1, 2, 3: x chooses what
// the first does with v1 (only x >= 20 compares it with v2), y what the
// second does with v2 (only 101 <= y <= 103 modifies it). Both choices and
// a schedule are needed for the race to show as a panic; for a race
// detector the two choices suffice.
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
			v1.Equals(v2) // BUG: walks v2 without v2's lock while the other goroutine removes from it
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
		fmt.Fprintln(os.Stderr, "usage: vecrace [iterators [modifiers]]")
		os.Exit(2)
	}
	return n
}
