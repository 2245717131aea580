package vecdeadlock1

import "testing"

// FuzzVecDeadlock1 is the repaired VecDeadlock1: x and y choose the two
// goroutines' operations (see Run). The second seed input is one that can
// deadlock in the unrepaired vecdeadlock1.
func FuzzVecDeadlock1(f *testing.F) {
	f.Add(0, 0)
	f.Add(30, -6)
	f.Fuzz(func(t *testing.T, x, y int) {
		Run(x, y)
	})
}
