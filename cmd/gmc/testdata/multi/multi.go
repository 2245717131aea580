// Package multi has tests with different bugs, for checking many entries
// at once: a leak, a deadlock, a data race, a correct test, and a test
// that calls a function gmc does not model.
package multi

import "sync"

// Counter is a counter safe for concurrent use, except Bump.
type Counter struct {
	mu sync.Mutex
	n  int
}

// Add adds one under the lock.
func (c *Counter) Add() {
	c.mu.Lock()
	c.n++
	c.mu.Unlock()
}

// Bump adds one without the lock: a data race with Add.
func (c *Counter) Bump() { c.n++ }

// First returns the first result of work, leaving the other workers
// blocked forever on the unbuffered channel (a goroutine leak).
func First(work int) int {
	ch := make(chan int)
	for i := 0; i < work; i++ {
		go func() { ch <- i }()
	}
	return <-ch
}
