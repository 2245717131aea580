package vm_test

import (
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/gmc-go/gmc/vm"
	"github.com/gmc-go/gmc/vm/load"
	"github.com/gmc-go/gmc/vm/trace"
)

// TestLeakReachability: only goroutines blocked on primitives that no live
// goroutine and no global can reach are leaked, as in Go's leak profile.
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
			m := vm.New(prog, vm.Options{Args: []string{c.arg}, Checks: vm.Checks{Leak: true}})
			e, err := m.FindEntry("main")
			if err != nil {
				t.Fatal(err)
			}
			for seed := uint64(1); seed <= 10; seed++ {
				s, _, _ := trace.RandomRun(m, e, seed, 10000, nil)
				var got []string
				if err := s.Err(); err != nil {
					if err.Kind != vm.KindLeak {
						t.Fatalf("seed %d: %s", seed, errString(err))
					}
					for _, g := range err.Goroutines {
						got = append(got, g.Start+" ["+g.Wait+"]")
					}
				} else if !s.Exited() {
					t.Fatalf("seed %d: did not end", seed)
				}
				sort.Strings(got)
				if g := strings.Join(got, ", "); g != c.want {
					t.Fatalf("seed %d: leaked %q, want %q", seed, g, c.want)
				}
			}
		})
	}
}
