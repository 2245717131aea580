package elem

import "testing"

// FuzzElem is the repaired Fig. 2.2: x is thread B's input. The second seed
// input is one that can fail in the unrepaired elem.
func FuzzElem(f *testing.F) {
	f.Add(0)
	f.Add(19)
	f.Fuzz(func(t *testing.T, x int) {
		Run(x)
	})
}
