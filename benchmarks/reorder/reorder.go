// Command reorder is the reorder benchmark of the main seed (Tables 3.1,
// 3.2, 4.1, 5.1, B.1, B.5). Two shared variables a and b start at 0. Setters
// write a = 1 and then b = -1 without any lock; checkers evaluate the
// invariant (a == 0 && b == 0) || (a == 1 && b == -1). A checker that reads
// between a setter's two writes sees a = 1, b = 0 and panics.
//
// Usage:
//
//	reorder [setters [checkers]]
//
// The defaults are 2 setters and 2 checkers. Setters are started before
// checkers and main waits for all of them.
package main

import (
	"fmt"
	"os"
	"strconv"
	"sync"
)

var a, b int

func set() {
	a = 1
	b = -1
}

func check() {
	if !((a == 0 && b == 0) || (a == 1 && b == -1)) {
		panic("reorder: bug found: invariant (a==0 && b==0) || (a==1 && b==-1) does not hold") // BUG: a checker ran between a setter's writes of a and b
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
		fmt.Fprintln(os.Stderr, "usage: reorder [setters [checkers]]")
		os.Exit(2)
	}
	return n
}
