// Command reorder_fixed is the repaired twin of the reorder benchmark:
// setters and checkers share one mutex, so no checker can run between a
// setter's writes of a and b and the invariant (a == 0 && b == 0) || (a == 1
// && b == -1) always holds.
//
// Usage:
//
//	reorder_fixed [setters [checkers]]
//
// The defaults are 2 setters and 2 checkers.
package main

import (
	"fmt"
	"os"
	"strconv"
	"sync"
)

var (
	mu   sync.Mutex // guards a and b
	a, b int
)

func set() {
	mu.Lock()
	a = 1
	b = -1
	mu.Unlock()
}

func check() {
	mu.Lock()
	defer mu.Unlock()
	if !((a == 0 && b == 0) || (a == 1 && b == -1)) {
		panic("reorder: bug found: invariant (a==0 && b==0) || (a==1 && b==-1) does not hold")
	}
}

func main() {
	setters, checkers := arg(1, 2), arg(2, 2)
	var wg sync.WaitGroup
	for range setters {
		wg.Add(1)
		go func() {
			defer wg.Done()
			set()
		}()
	}
	for range checkers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			check()
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
		fmt.Fprintln(os.Stderr, "usage: reorder_fixed [setters [checkers]]")
		os.Exit(2)
	}
	return n
}
