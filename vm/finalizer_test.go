package vm_test

import (
	"testing"

	"github.com/gmc-go/gmc/guide"
	"github.com/gmc-go/gmc/vm"
)

// TestFinalizers: runtime.GC runs the finalizers and cleanups of the
// objects nothing reaches, on a goroutine of their own, and not those of
// an object a global keeps, a finalizer cleared or a cleanup stopped
// (testdata/finalizer: output = go run's). Before, SetFinalizer did
// nothing, so a test waiting for a finalizer failed (a false alarm), and
// AddCleanup stopped the entry as unsupported. Every schedule, with races
// and leaks checked, ends without an error.
func TestFinalizers(t *testing.T) {
	checkGoRunOutput(t, "testdata/finalizer")
	m, e := machine(t, "finalizer", vm.Options{Checks: vm.Checks{Race: true, Leak: true}})
	res := guide.Search(t.Context(), m, e, guide.Config{Strategy: guide.Exhaustive, MaxStates: 20000})
	if res.Final != nil && res.Final.Err() != nil {
		t.Fatalf("error: %s", errString(res.Final.Err()))
	}
	if !res.Exhausted {
		t.Errorf("not exhausted in %d states", res.Stats.States)
	}
}
