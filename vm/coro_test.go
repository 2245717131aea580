package vm_test

import (
	"testing"

	"github.com/gmc-go/gmc/guide"
	"github.com/gmc-go/gmc/vm"
)

// TestCoroutines: iter.Pull and iter.Pull2 over the VM's coroutines
// (natives_iter.go) — two pulls zipped, a pull stopped early, a panic of
// the sequence propagated to next, pulls in two goroutines at once —
// print what go run prints (testdata/coro; before: "call of iter.newcoro
// (no body and no model)"), and no schedule has an error, with races and
// leaks checked.
func TestCoroutines(t *testing.T) {
	checkGoRunOutput(t, "testdata/coro")
	exhaustsWithoutError(t, "coro", 100000)
}

// exhaustsWithoutError searches every schedule of testdata/NAME's main,
// with races and leaks checked, and fails on an error or a search that
// does not end within maxStates.
func exhaustsWithoutError(t *testing.T, name string, maxStates int) {
	t.Helper()
	m, e := machine(t, name, vm.Options{Checks: vm.Checks{Race: true, Leak: true}})
	res := guide.Search(t.Context(), m, e, guide.Config{Strategy: guide.Exhaustive, MaxStates: maxStates})
	if res.Final != nil && res.Final.Err() != nil {
		t.Fatalf("error: %s", errString(res.Final.Err()))
	}
	if !res.Exhausted {
		t.Errorf("not exhausted in %d states", res.Stats.States)
	}
}
