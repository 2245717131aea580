// Command deadlock_fixed is the repaired twin of the deadlock benchmark:
// both goroutines take a before b, so neither can hold one lock while the
// other holds the second.
//
// Usage:
//
//	deadlock_fixed [rounds]
//
// rounds (default 1) is how many times each goroutine takes its two locks.
package main

import (
	"fmt"
	"os"
	"strconv"
	"sync"
)

var (
	a, b    sync.Mutex
	counter int
)

func left(rounds int) {
	for range rounds {
		a.Lock()
		b.Lock()
		counter++
		b.Unlock()
		a.Unlock()
	}
}

func right(rounds int) {
	for range rounds {
		a.Lock()
		b.Lock()
		counter++
		b.Unlock()
		a.Unlock()
	}
}

func main() {
	rounds := arg(1, 1)
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		left(rounds)
	}()
	go func() {
		defer wg.Done()
		right(rounds)
	}()
	wg.Wait()
}

// arg returns os.Args[i] as an integer, or def when there is no such argument.
func arg(i, def int) int {
	if i >= len(os.Args) {
		return def
	}
	n, err := strconv.Atoi(os.Args[i])
	if err != nil {
		fmt.Fprintln(os.Stderr, "usage: deadlock_fixed [rounds]")
		os.Exit(2)
	}
	return n
}
