package vm_test

import (
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/gmc-go/gmc/guide"
	"github.com/gmc-go/gmc/vm"
	"github.com/gmc-go/gmc/vm/load"
)

// TestLeakReachability: only goroutines blocked on primitives that no live
// goroutine and no global can reach are leaked, as in Go's leak profile,
// checked when main returns (the process exits: goroutines still running
// are ended, not leaked). An exhaustive search finds the leak where some
// schedule has it, and none where no schedule has.
func TestLeakReachability(t *testing.T) {
	cases := []struct {
		arg  string
		want string // the leaked goroutines "start [wait]", sorted; "" for a normal exit
	}{
		{"global", ""},
		{"local", "main.main.func2 [chan send]"},
		{"chain", ""},
		{"mutex", "main.main.func6 [sync.Mutex.Lock]"},
		{"nil", "main.main.func10 [chan receive (nil chan)]"},
		{"closer", ""},
		{"wggo", ""},
	}
	prog, err := load.Load(load.Config{Dir: filepath.Join("testdata", "leakreach")})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		t.Run(c.arg, func(t *testing.T) {
			m := vm.New(prog, vm.Options{Args: []string{c.arg}, Checks: vm.Checks{Leak: true}, Sanity: true})
			e, err := m.FindEntry("main")
			if err != nil {
				t.Fatal(err)
			}
			res := guide.Search(t.Context(), m, e, guide.Config{Strategy: guide.Exhaustive, MaxStates: 100000})
			var got []string
			if res.Verdict == guide.VerdictError {
				err := res.Final.Err()
				if err.Kind != vm.KindLeak {
					t.Fatalf("%s", errString(err))
				}
				for _, g := range err.Goroutines {
					got = append(got, g.Start+" ["+g.Wait+"]")
				}
			} else if res.Verdict != guide.VerdictNoError {
				t.Fatalf("verdict %s", res.Verdict)
			}
			sort.Strings(got)
			if g := strings.Join(got, ", "); g != c.want {
				t.Fatalf("leaked %q, want %q", g, c.want)
			}
		})
	}
}
