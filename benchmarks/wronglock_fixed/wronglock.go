// Command wronglock_fixed is the repaired twin of the wronglock benchmark:
// every increment of the record, B's included, holds the record's own
// mutex, so A's check always holds.
//
// Usage:
//
//	wronglock_fixed [lockers [wronglockers]]
//
// The defaults are 1 locker and 10 wrong-lockers.
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
		panic(fmt.Sprintf("wronglock: bug found: value went from %d to %d in one increment", x, w.data.value))
	}
}

// B increments the record under the record's lock too.
func (w *WrongLock) B() {
	w.data.mu.Lock()
	w.data.value++
	w.data.mu.Unlock()
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
		fmt.Fprintln(os.Stderr, "usage: wronglock_fixed [lockers [wronglockers]]")
		os.Exit(2)
	}
	return n
}
