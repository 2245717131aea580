// Command twostage is the twostage benchmark of the main seed (Tables 3.1,
// 3.2, 4.1, 5.2, B.1, B.5), an atomicity violation. Two records d1 and d2
// each have their own mutex. A two-stager sets d1.v = 1 under d1's lock and
// then, in a separate critical section under d2's lock, sets
// d2.v = d1.v + 1. A reader takes d1's lock, returns if d1.v is still 0 and
// otherwise remembers t1 = d1.v; then it reads t2 = d2.v under d2's lock and
// panics if t2 != t1+1. The reader fails when it runs between a two-stager's
// two stages.
//
// Usage:
//
//	twostage [twostagers [readers]]
//
// The defaults are 1 two-stager and 1 reader. Two-stagers are started before
// readers and main waits for all of them.
package main

import (
	"fmt"
	"os"
	"strconv"
	"sync"
)

// data is a record with its own lock.
type data struct {
	mu sync.Mutex
	v  int
}

var d1, d2 data

func twoStage() {
	d1.mu.Lock()
	d1.v = 1
	d1.mu.Unlock()

	d2.mu.Lock()
	d2.v = d1.v + 1
	d2.mu.Unlock()
}

func read() {
	d1.mu.Lock()
	if d1.v == 0 {
		d1.mu.Unlock()
		return
	}
	t1 := d1.v
	d1.mu.Unlock()

	d2.mu.Lock()
	t2 := d2.v
	d2.mu.Unlock()

	if t2 != t1+1 {
		panic(fmt.Sprintf("twostage: bug found: reader saw d1.v=%d but d2.v=%d", t1, t2)) // BUG: the reader ran between the two stages of a two-stager
	}
}

func main() {
	twoStagers, readers := arg(1, 1), arg(2, 1)
	var wg sync.WaitGroup
	for range twoStagers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			twoStage()
		}()
	}
	for range readers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			read()
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
		fmt.Fprintln(os.Stderr, "usage: twostage [twostagers [readers]]")
		os.Exit(2)
	}
	return n
}
