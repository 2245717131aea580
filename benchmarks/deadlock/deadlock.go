// Command deadlock is the deadlock benchmark of the main seed (Table B.1,
// Deadlock(3)): two mutexes a and b; one goroutine locks a then b, the other
// locks b then a, and each bumps a shared counter in its critical section.
// If each takes its first lock before the other takes its second, both wait
// forever.
//
// Usage:
//
//	deadlock [rounds]
//
// rounds (default 1) is how many times each goroutine takes its two locks;
// the seed's Deadlock model was run with the parameters 1 and 2.
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
		b.Lock() // BUG: lock order a, b here and b, a in right
		counter++
		b.Unlock()
		a.Unlock()
	}
}

func right(rounds int) {
	for range rounds {
		b.Lock()
		a.Lock() // BUG: lock order b, a here and a, b in left
		counter++
		a.Unlock()
		b.Unlock()
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
		fmt.Fprintln(os.Stderr, "usage: deadlock [rounds]")
		os.Exit(2)
	}
	return n
}
