package vm_test

import (
	"testing"

	"github.com/gmc-go/gmc/vm"
)

// TestCellPagesEverywhere: with every plain object's cells in pages copied
// on write (cellpages.go), programs print what go run prints (want.txt:
// tables, unsafe views and reinterpretations, reflection, embedded
// files, finalizers, os.Args, net/http's pure parts), the unsafe cases
// behave as with flat cells, every schedule of testdata/sharedcells sees
// its own writes only, and the race detector (its shadows paged too)
// finds the races of its tests and no others.
func TestCellPagesEverywhere(t *testing.T) {
	defer vm.SetCellPageMin(1)()
	for _, dir := range []string{"bigtable", "coro", "embed", "finalizer", "hdrarray", "httppure", "packed", "reflecteq", "reflectslice", "wggo", "oncepanic"} {
		checkGoRunOutput(t, "testdata/"+dir)
	}
	runUnsafeAndViewCases(t)
	TestSharedCells(t)
	TestRaceDetector(t)
	TestRaceAlone(t)
	TestRacePacked(t)
}
