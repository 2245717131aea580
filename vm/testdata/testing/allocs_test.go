package testing_test

import "testing"

// TestAllocsNotModelled asserts what go.uber.org/multierr asserts: no
// allocation in a call (it passes under go test, where escape analysis
// keeps the slice on the stack). gmc cannot know the gc compiler's count:
// the entry stops at AllocsPerRun, not checked, rather than pass or fail.
func TestAllocsNotModelled(t *testing.T) {
	errs := make([]error, 10)
	allocs := testing.AllocsPerRun(100, func() {
		n := 0
		for _, e := range errs {
			if e != nil {
				n++
			}
		}
		_ = n
	})
	if allocs != 0 {
		t.Fatalf("%v allocations", allocs)
	}
}
