// Package vecdeadlock0 is the VecDeadlock0 benchmark of the main seed
// (Tables 2.1, 2.2): two goroutines use the synchronized Vectors of
// package collections, and two integers choose what each one does. Only
// x >= 100 makes the first call v1.AddAll(v2), and only 0 < y <= 3 makes the
// second call v2.AddAll(v1); with both choices, and a schedule in which each
// takes its receiver's lock before the other takes its argument's, the two
// AddAll calls deadlock (AddAll holds the receiver's lock while the
// argument's ToArray takes the argument's). The fuzz target is
// FuzzVecDeadlock0.
package vecdeadlock0

import (
	"sync"

	"github.com/gmc-go/gmc/benchmarks/collections"
)

// Run runs the two goroutines with the choices x and y and waits for them.
func Run(x, y int) {
	v1 := collections.NewVector(1, 2, 3)
	v2 := collections.NewVector(4, 5, 6)
	v3 := collections.NewVector(7, 8, 9) // only ever locked second
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		switch {
		case x < 0:
			v1.Clear()
		case x < 50:
			v1.Add(x)
		case x < 100:
			v1.AddAll(v3)
		default:
			v1.AddAll(v2) // BUG: holds v1 and waits for v2 while the other goroutine holds v2 and waits for v1
		}
	}()
	go func() {
		defer wg.Done()
		switch {
		case y > 7:
			v2.Add(y)
		case y > 3:
			v2.AddAll(v3)
		case y > 0:
			v2.AddAll(v1) // BUG: holds v2 and waits for v1 while the other goroutine holds v1 and waits for v2
		default:
			v2.Remove(-y)
		}
	}()
	wg.Wait()
}
