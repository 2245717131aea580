// Package vecdeadlock1 is the VecDeadlock1 benchmark of the main seed
// (Tables 2.1, 2.2): two goroutines use the synchronized Vectors of
// package collections, and two integers choose what each one does. Only
// x >= 30 makes the first call v1.ContainsAll(v2), and only y < -5 makes the
// second call v2.Equals(v1). Both walk their argument with its iterator
// while holding the receiver's lock, and the iterator takes the argument's
// lock for every Size and Get: with both choices and the right schedule the
// two calls hold one lock each and wait for the other's. No goroutine
// modifies a list that the other walks, so the deadlock is the only error.
// The fuzz target is FuzzVecDeadlock1.
package vecdeadlock1

import (
	"sync"

	"github.com/gmc-go/gmc/benchmarks/collections"
)

// Run runs the two goroutines with the choices x and y and waits for them.
func Run(x, y int) {
	v1 := collections.NewVector(1, 2, 3)
	v2 := collections.NewVector(1, 2)
	v3 := collections.NewVector(3) // only ever locked second
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		switch {
		case x < 10:
			v1.Contains(x)
		case x < 20:
			v1.Size()
		case x < 30:
			v1.ContainsAll(v3)
		default:
			v1.ContainsAll(v2) // BUG: holds v1 and waits for v2 while the other goroutine holds v2 and waits for v1
		}
	}()
	go func() {
		defer wg.Done()
		switch {
		case y < -5:
			v2.Equals(v1) // BUG: holds v2 and waits for v1 while the other goroutine holds v1 and waits for v2
		case y < 0:
			v2.Equals(v3)
		default:
			v2.Contains(y)
		}
	}()
	wg.Wait()
}
