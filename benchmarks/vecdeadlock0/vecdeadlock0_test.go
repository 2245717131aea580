package vecdeadlock0

import "testing"

// FuzzVecDeadlock0 is the seed's VecDeadlock0: x and y choose the two
// goroutines' operations (see Run). The seed input does not deadlock.
func FuzzVecDeadlock0(f *testing.F) {
	f.Add(1, 9)
	f.Fuzz(func(t *testing.T, x, y int) {
		Run(x, y)
	})
}
