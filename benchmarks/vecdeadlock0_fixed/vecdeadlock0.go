// Package vecdeadlock0, in directory vecdeadlock0_fixed, is the repaired
// twin of VecDeadlock0: each goroutine appends a snapshot of the other
// Vector, taken by ToArray before AddAll, so no goroutine holds one Vector's
// lock while it waits for the other's. The fuzz target is FuzzVecDeadlock0.
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
			v1.AddAll(collections.NewVector(v2.ToArray()...))
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
			v2.AddAll(collections.NewVector(v1.ToArray()...))
		default:
			v2.Remove(-y)
		}
	}()
	wg.Wait()
}
