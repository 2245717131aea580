package vm_test

import (
	"strings"
	"testing"

	"github.com/gmc-go/gmc/guide"
	"github.com/gmc-go/gmc/vm"
)

// TestWaitGroupReuse: Go's WaitGroup.Wait panics when, by the time the
// waiter released by the counter reaching 0 runs, the WaitGroup is in use
// again (testdata/wgreuse: the worker's Add after its Done); a WaitGroup
// whose rounds start after the previous Waits returned never panics
// (testdata/wgrounds). Exhaustive searches, with and without the race
// detector (which reports wgreuse's Add and Wait as a race first).
func TestWaitGroupReuse(t *testing.T) {
	const msg = "sync: WaitGroup is reused before previous Wait has returned"
	for _, race := range []bool{false, true} {
		m, e := machine(t, "wgreuse", vm.Options{Checks: vm.Checks{Race: race}, Sanity: true})
		res := guide.Search(t.Context(), m, e, guide.Config{Strategy: guide.Exhaustive, MaxStates: 100000})
		if res.Verdict != guide.VerdictError {
			t.Fatalf("wgreuse, race %v: verdict %s, want the panic", race, res.Verdict)
		}
		err := res.Final.Err()
		switch {
		case race && err.Kind == vm.KindRace:
		case err.Kind != vm.KindPanic || !strings.Contains(err.Msg, msg):
			t.Fatalf("wgreuse, race %v: %s %s, want the panic %q", race, err.Kind, err.Msg, msg)
		}
		m, e = machine(t, "wgrounds", vm.Options{Checks: vm.Checks{Race: race}, Sanity: true})
		res = guide.Search(t.Context(), m, e, guide.Config{Strategy: guide.Exhaustive, MaxStates: 100000})
		if res.Verdict != guide.VerdictNoError {
			var err *vm.Error
			if res.Final != nil {
				err = res.Final.Err()
			}
			t.Fatalf("wgrounds, race %v: verdict %s %s", race, res.Verdict, errString(err))
		}
	}
}
