package vm_test

import (
	"strings"
	"testing"

	"github.com/gmc-go/gmc/guide"
	"github.com/gmc-go/gmc/vm"
	"github.com/gmc-go/gmc/vm/load"
	"github.com/gmc-go/gmc/vm/trace"
)

// TestExamples: testable examples are entries as go test runs them — those
// with an output comment, in the package and its external test package —
// and a schedule whose output differs from the comment is an error that
// replays (testdata/examples: Example_order prints from two goroutines,
// which go test -count=5 fails; before, examples were not listed, and
// named with --entry their output was not compared, nor part of the state
// hash). Unordered output matches in any order. What the initializers
// print is not an example's output (an init of the test file prints a
// line: before, every example failed with it, as google/btree's did).
func TestExamples(t *testing.T) {
	prog, err := load.Load(load.Config{Dir: "testdata/examples"})
	if err != nil {
		t.Fatal(err)
	}
	var listed []string
	for _, l := range vm.ListEntries(prog) {
		if l.Kind == vm.ListedExample {
			listed = append(listed, l.Name)
		}
	}
	if got := strings.Join(listed, " "); got != "ExampleSum Example_callers Example_external Example_order Example_unordered" {
		t.Errorf("examples listed: %s", got)
	}
	m := vm.New(prog, vm.Options{Checks: vm.Checks{Race: true, Leak: true}})
	for _, name := range listed {
		e, err := m.FindEntry(name)
		if err != nil || e.Kind != vm.EntryExample {
			t.Fatalf("%s: %v, kind %v", name, err, e.Kind)
		}
		res := guide.Search(t.Context(), m, e, guide.Config{Strategy: guide.Exhaustive, MaxStates: 10000})
		var verr *vm.Error
		if res.Final != nil {
			verr = res.Final.Err()
		}
		if name != "Example_order" {
			if verr != nil || !res.Exhausted {
				t.Errorf("%s: %s (exhausted %v)", name, errString(verr), res.Exhausted)
			}
			continue
		}
		if verr == nil || verr.Kind != vm.KindAssert || !strings.Contains(verr.Msg, "got:\n2\n1\nwant:\n1\n2") {
			t.Fatalf("%s: %s; want the output 2 1 against 1 2", name, errString(verr))
		}
		rs, _, err := trace.Replay(m, e, res.Choices, nil)
		if err != nil || rs.Err() == nil || rs.Err().Msg != verr.Msg {
			t.Errorf("%s: replay: %v, %s", name, err, errString(rs.Err()))
		}
	}
}
