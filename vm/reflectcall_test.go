package vm_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/gmc-go/gmc/guide"
	"github.com/gmc-go/gmc/vm"
	"github.com/gmc-go/gmc/vm/load"
)

// TestReflectCallQuick: testdata/quickcall's tests call VM functions,
// closures, method values and variadic functions through
// reflect.Value.Call and CallSlice (results, reflect's panics, a callee
// that starts goroutines or panics), call functions made by
// reflect.MakeFunc (directly, through Call, from a goroutine, a wrong
// result type), and run testing/quick from its
// source; every interleaving gives the verdict go test -race gives, and
// the leak a goroutine started through Call leaves is found.
func TestReflectCallQuick(t *testing.T) {
	prog, err := load.Load(load.Config{Dir: filepath.Join("testdata", "quickcall")})
	if err != nil {
		t.Fatal(err)
	}
	if !prog.Interpreted("testing/quick") {
		t.Error("testing/quick is not interpreted")
	}
	for _, c := range []struct {
		entry string
		kind  vm.Kind // "" for a passing test
		msg   string
	}{
		{"TestCall", "", ""},
		{"TestCallPanics", "", ""},
		{"TestCallConcurrent", "", ""},
		{"TestMakeFunc", "", ""},
		{"TestQuickCheck", "", ""},
		{"TestCallLeaks", vm.KindLeak, ""},
		{"TestQuickCheckFails", vm.KindAssert, "--- FAIL: TestQuickCheckFails\n    quickcall_test.go:187: #"},
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
			if res.Verdict != guide.VerdictError || res.Final.Err().Kind != c.kind || !strings.HasPrefix(res.Final.Err().Msg, c.msg) {
				t.Fatalf("verdict %s %s, want %s %q", res.Verdict, errString(res.Final.Err()), c.kind, c.msg)
			}
		})
	}
}
