// Command clean is the clean benchmark of the main seed (Table B.1), a lost
// notification. Two events e1 and e2 each have a count, a mutex and a
// condition variable; WaitForEvent(c) waits once if the count still equals
// c, and Signal increments the count mod 100 and wakes all waiters. First
// tasks remember e1's count, then loop: wait for e1 with the remembered
// count, remember e1's count again, signal e2. Second tasks loop: signal e1,
// wait for e2 with their remembered count, remember e2's count.
//
// The count a task remembers is read after, not together with, the event it
// waited for: a task that starts late, or reads late, takes a signal it never
// waited for as already seen and then waits for one that never comes. When
// first and second tasks all wait, nothing signals again: deadlock.
//
// Usage:
//
//	clean [firstTasks [secondTasks [iterations]]]
//
// The defaults are 1 first task, 1 second task and 12 iterations. First
// tasks are started before second tasks and main waits for all of them.
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

// WaitForEvent waits once if the count is still c.
func (e *Event) WaitForEvent(c int) {
	e.mu.Lock()
	if e.count == c {
		e.signaled.Wait() // BUG: lost notification: the signal this task waits for may already have been counted
	}
	e.mu.Unlock()
}

func (e *Event) Signal() {
	e.mu.Lock()
	e.count = (e.count + 1) % 100
	e.signaled.Broadcast()
	e.mu.Unlock()
}

func (e *Event) Count() int {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.count
}

func firstTask(e1, e2 *Event, iterations int) {
	c := e1.Count()
	for range iterations {
		e1.WaitForEvent(c)
		c = e1.Count()
		e2.Signal()
	}
}

func secondTask(e1, e2 *Event, iterations int) {
	c := e2.Count()
	for range iterations {
		e1.Signal()
		e2.WaitForEvent(c)
		c = e2.Count()
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
		fmt.Fprintln(os.Stderr, "usage: clean [firstTasks [secondTasks [iterations]]]")
		os.Exit(2)
	}
	return n
}
