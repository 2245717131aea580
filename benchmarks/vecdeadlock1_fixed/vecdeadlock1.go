// Package vecdeadlock1, in directory vecdeadlock1_fixed, is the repaired
// twin of VecDeadlock1: each goroutine compares its Vector with a snapshot
// of the other one, taken by ToArray, so no goroutine holds one Vector's
// lock while it waits for the other's. The fuzz target is FuzzVecDeadlock1.
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
			v1.ContainsAll(collections.NewVector(v2.ToArray()...))
		}
	}()
	go func() {
		defer wg.Done()
		switch {
		case y < -5:
			v2.Equals(collections.NewVector(v1.ToArray()...))
		case y < 0:
			v2.Equals(v3)
		default:
			v2.Contains(y)
		}
	}()
	wg.Wait()
}
