package elem

import "testing"

// FuzzElem is Fig. 2.2: x is thread B's input. The seed input does not
// reach the failure.
func FuzzElem(f *testing.F) {
	f.Add(0)
	f.Fuzz(func(t *testing.T, x int) {
		Run(x)
	})
}
