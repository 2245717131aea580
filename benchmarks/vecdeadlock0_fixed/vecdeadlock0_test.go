package vecdeadlock0

import "testing"

// FuzzVecDeadlock0 is the repaired VecDeadlock0: x and y choose the two
// goroutines' operations (see Run). The second seed input is one that can
// deadlock in the unrepaired vecdeadlock0.
func FuzzVecDeadlock0(f *testing.F) {
	f.Add(1, 9)
	f.Add(100, 1)
	f.Fuzz(func(t *testing.T, x, y int) {
		Run(x, y)
	})
}
