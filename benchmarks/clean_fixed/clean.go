// Command clean_fixed is the repaired twin of the clean benchmark: a task
// counts the events it has consumed instead of re-reading the event's
// count, and WaitForEvent(c) waits, in a loop, until the event has happened
// more than c times. The counts are not taken mod 100, so they only grow.
// The k-th wait of every task needs only k signals, which the other side
// always sends, so no task waits forever.
//
// Usage:
//
//	clean_fixed [firstTasks [secondTasks [iterations]]]
//
// The defaults are 1 first task, 1 second task and 12 iterations.
package main

import (
	"fmt"
	"os"
	"strconv"
	"sync"
)

// Event counts signals.
type Event struct {
	mu       sync.Mutex
	signaled *sync.Cond
	count    int
}

func NewEvent() *Event {
	e := &Event{}
	e.signaled = sync.NewCond(&e.mu)
	return e
}

// WaitForEvent waits until the event has been signaled more than c times.
func (e *Event) WaitForEvent(c int) {
	e.mu.Lock()
	for e.count <= c {
		e.signaled.Wait()
	}
	e.mu.Unlock()
}

func (e *Event) Signal() {
	e.mu.Lock()
	e.count++
	e.signaled.Broadcast()
	e.mu.Unlock()
}

func firstTask(e1, e2 *Event, iterations int) {
	c := 0 // events of e1 consumed
	for range iterations {
		e1.WaitForEvent(c)
		c++
		e2.Signal()
	}
}

func secondTask(e1, e2 *Event, iterations int) {
	c := 0 // events of e2 consumed
	for range iterations {
		e1.Signal()
		e2.WaitForEvent(c)
		c++
	}
}

func main() {
	firsts, seconds, iterations := arg(1, 1), arg(2, 1), arg(3, 12)
	e1, e2 := NewEvent(), NewEvent()
	var wg sync.WaitGroup
	for range firsts {
		wg.Add(1)
		go func() {
			defer wg.Done()
			firstTask(e1, e2, iterations)
		}()
	}
	for range seconds {
		wg.Add(1)
		go func() {
			defer wg.Done()
			secondTask(e1, e2, iterations)
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
		fmt.Fprintln(os.Stderr, "usage: clean_fixed [firstTasks [secondTasks [iterations]]]")
		os.Exit(2)
	}
	return n
}
