// Command wronglock is the wronglock benchmark of the main seed (Tables 3.1,
// 3.2, 4.1, B.1, B.2, B.3, B.5). A shared record is guarded inconsistently:
// lockers take the record's own mutex, read x = v, increment v and panic if
// v != x+1; wrong-lockers increment v holding a different mutex, the one of
// the object that owns the record. A wrong-locker's increment inside a
// locker's critical section breaks the locker's check.
//
// Usage:
//
//	wronglock [lockers [wronglockers]]
//
// The defaults are 1 locker and 10 wrong-lockers. Lockers are started first
// and main waits for all of them.
package main

import (
	"fmt"
	"os"
	"strconv"
	"sync"
)

// Data is the shared record with its own lock.
type Data struct {
	mu    sync.Mutex
	value int
}

// WrongLock owns the record and has a lock of its own.
type WrongLock struct {
	mu   sync.Mutex
	data *Data
}

// A increments the record under the record's lock and checks the increment.
func (w *WrongLock) A() {
	w.data.mu.Lock()
	defer w.data.mu.Unlock()
	x := w.data.value
	w.data.value++
	if w.data.value != x+1 {
		panic(fmt.Sprintf("wronglock: bug found: value went from %d to %d in one increment", x, w.data.value)) // BUG: a wrong-locker incremented inside this critical section
	}
}

// B increments the record under the owner's lock instead of the record's.
func (w *WrongLock) B() {
	w.mu.Lock()
	w.data.value++
	w.mu.Unlock()
}

func main() {
	lockers, wrongLockers := arg(1, 1), arg(2, 10)
	w := &WrongLock{data: &Data{}}
	var wg sync.WaitGroup
	for range lockers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			w.A()
		}()
	}
	for range wrongLockers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			w.B()
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
		fmt.Fprintln(os.Stderr, "usage: wronglock [lockers [wronglockers]]")
		os.Exit(2)
	}
	return n
}
