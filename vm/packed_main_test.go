package vm_test

import (
	"math"
	"testing"

	"github.com/gmc-go/gmc/vm"
	"github.com/gmc-go/gmc/vm/load"
)

// TestPackedArrays: slices and arrays of numbers large enough to be packed
// (packed.go) — bytes and words across pages, copy and append between
// packed and unpacked slices, clear, array values and pointers to arrays,
// unsafe views both ways, bytes.Buffer, runes and sorting — print what go
// run prints (want.txt), whether every such object is packed, the large
// ones only (the default) or none.
func TestPackedArrays(t *testing.T) {
	for _, n := range []int{1, 0, math.MaxInt} {
		if n != 0 {
			restore := vm.SetPackMin(n)
			checkGoRunOutput(t, "testdata/packed")
			restore()
			continue
		}
		checkGoRunOutput(t, "testdata/packed")
	}
}

// TestPackedUnsafe: the unsafe reinterpretations of memory of
// TestUnsafeMemory and TestUnsafeView behave the same with every array
// and slice of numbers packed.
func TestPackedUnsafe(t *testing.T) {
	defer vm.SetPackMin(1)()
	runUnsafeAndViewCases(t)
}

// runUnsafeAndViewCases runs the cases of TestUnsafeMemory and
// TestUnsafeView (under a representation a test sets).
func runUnsafeAndViewCases(t *testing.T) {
	t.Helper()
	prog, err := unsafeProg()
	if err != nil {
		t.Fatal(err)
	}
	runUnsafeCases(t, prog, unsafeCases)
	view, err := load.Load(load.Config{Dir: "testdata/unsafeview"})
	if err != nil {
		t.Fatal(err)
	}
	runUnsafeCases(t, view, unsafeViewCases)
}
