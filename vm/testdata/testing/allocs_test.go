package testing_test

import (
	"runtime"
	"testing"
)

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

// TestMallocsNotModelled counts allocations with runtime.ReadMemStats
// as ttlcache's allocsPerSingleRun does (it passes under go test: new(int)
// stored in a global escapes, one malloc): gmc stops at ReadMemStats, not
// checked, rather than see 0.
func TestMallocsNotModelled(t *testing.T) {
	if got := mallocsOf(func() { sink = new(int) }); got != 1 {
		t.Fatalf("%d allocations", got)
	}
}

var sink *int

func mallocsOf(f func()) int {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	before := ms.Mallocs
	f()
	runtime.ReadMemStats(&ms)
	return int(ms.Mallocs - before)
}
