// Command twostage_fixed is the repaired twin of the twostage benchmark: a
// two-stager holds d1's lock across both stages, so a reader that sees
// d1.v = 1 always finds d2.v = 2.
//
// Usage:
//
//	twostage_fixed [twostagers [readers]]
//
// The defaults are 1 two-stager and 1 reader.
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

	d2.mu.Lock()
	d2.v = d1.v + 1
	d2.mu.Unlock()
	d1.mu.Unlock()
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
		panic(fmt.Sprintf("twostage: bug found: reader saw d1.v=%d but d2.v=%d", t1, t2))
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
		fmt.Fprintln(os.Stderr, "usage: twostage_fixed [twostagers [readers]]")
		os.Exit(2)
	}
	return n
}
