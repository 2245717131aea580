package vm_test

import (
	"path/filepath"
	"testing"

	"github.com/gmc-go/gmc/guide"
	"github.com/gmc-go/gmc/vm"
	"github.com/gmc-go/gmc/vm/load"
)

// TestReflectSelect: reflect.Select is a select (testdata/reflectselect):
// it blocks until a partner comes, takes a closed channel's case and the
// default case as Go does, offers every ready case as a choice (the
// exhaustive search finds the run go test fails in half the time, with
// its message), and panics as reflect does on an invalid case. Value's
// Send, Recv, TrySend, TryRecv and Close are channel operations.
func TestReflectSelect(t *testing.T) {
	prog, err := load.Load(load.Config{Dir: filepath.Join("testdata", "reflectselect")})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		entry string
		kind  vm.Kind // "" for no error in any interleaving
		msg   string  // what go test prints for the failure
	}{
		{"TestSelectBlocks", "", ""},
		{"TestSelectClosedAndDefault", "", ""},
		{"TestSelectReady", vm.KindAssert, "--- FAIL: TestSelectReady\n    reflectselect_test.go:63: case 1 (value 2) chosen"},
		{"TestFailsInvalidDir", vm.KindPanic, "panic: reflect.Select: invalid Dir"},
		{"TestValueSendRecv", "", ""},
		{"TestValueRecvLeak", vm.KindLeak, "goroutine leak: 1 goroutine blocked forever after the entry returned"},
		{"TestFailsSendNotAssignable", vm.KindPanic, "panic: reflect.Value.Send: value of type string is not assignable to type int"},
	} {
		t.Run(c.entry, func(t *testing.T) {
			m := vm.New(prog, vm.Options{Checks: vm.Checks{Leak: true, Race: true}, Sanity: true})
			e, err := m.FindEntry(c.entry)
			if err != nil {
				t.Fatal(err)
			}
			res := guide.Search(t.Context(), m, e, guide.Config{Strategy: guide.Exhaustive, MaxStates: 20000})
			if c.kind == "" {
				if res.Verdict != guide.VerdictNoError {
					t.Fatalf("verdict %s %s", res.Verdict, errString(res.Final.Err()))
				}
				return
			}
			if res.Verdict != guide.VerdictError || res.Final.Err().Kind != c.kind || res.Final.Err().Msg != c.msg {
				t.Fatalf("verdict %s %s, want %s %q", res.Verdict, errString(res.Final.Err()), c.kind, c.msg)
			}
		})
	}
}
