package vecdeadlock1

import "testing"

// FuzzVecDeadlock1 is the seed's VecDeadlock1: x and y choose the two
// goroutines' operations (see Run). The seed input does not deadlock.
func FuzzVecDeadlock1(f *testing.F) {
	f.Add(0, 0)
	f.Fuzz(func(t *testing.T, x, y int) {
		Run(x, y)
	})
}
