package vm_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/gmc-go/gmc/guide"
	"github.com/gmc-go/gmc/vm"
	"github.com/gmc-go/gmc/vm/load"
)

// TestAfterlife: after a test returns, its run goes on while a timer set
// before time passed is pending (timer.late): what the test left behind
// fires (a goroutine that sleeps and then panics, or fails the completed
// test — go test's "Fail in goroutine after TestX has completed" — is
// found), but a
// background loop on a ticker — started by the package's init or by the
// test — does not keep every run going forever: the exhaustive search
// ends on each (testdata/afterlife; before, every one of them was
// "unknown" after the whole time limit, as every test of panjf2000/ants).
func TestAfterlife(t *testing.T) {
	prog, err := load.Load(load.Config{Dir: filepath.Join("testdata", "afterlife")})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		entry string
		err   vm.Kind // "": no error, the space exhausted
	}{
		{"TestInitTicker", ""},
		{"TestJanitor", ""},
		{"TestLateLoop", ""},
		{"TestLatePanic", vm.KindPanic},
		// a goroutine failing the test after it completed: go test's panic
		{"TestLateError", vm.KindPanic},
		{"TestRacyError", vm.KindPanic},
		// before it completed (the test or its cleanup waits): a failure
		{"TestWaitedError", vm.KindAssert},
		{"TestCleanupError", vm.KindAssert},
	} {
		t.Run(c.entry, func(t *testing.T) {
			m := vm.New(prog, vm.Options{Checks: vm.Checks{Leak: true, Race: true}, Sanity: true})
			e, err := m.FindEntry(c.entry)
			if err != nil {
				t.Fatal(err)
			}
			res := guide.Search(t.Context(), m, e, guide.Config{Strategy: guide.Exhaustive, MaxStates: 200000})
			if c.err == "" {
				if res.Verdict != guide.VerdictNoError || !res.Exhausted {
					t.Fatalf("verdict %s (exhausted %v, %d states), want no error, exhausted", res.Verdict, res.Exhausted, res.Stats.States)
				}
				return
			}
			if res.Verdict != guide.VerdictError || res.Final.Err().Kind != c.err {
				t.Fatalf("verdict %s, want a %s", res.Verdict, c.err)
			}
			if msg := res.Final.Err().Msg; c.err == vm.KindPanic && c.entry != "TestLatePanic" && !strings.Contains(msg, "Fail in goroutine after "+c.entry+" has completed") {
				t.Errorf("panic %q, want go test's Fail in goroutine after %s has completed", msg, c.entry)
			}
		})
	}
}
