package vm_test

import (
	"path/filepath"
	"testing"

	"github.com/gmc-go/gmc/vm"
	"github.com/gmc-go/gmc/vm/load"
	"github.com/gmc-go/gmc/vm/trace"
)

// TestGoNative: a go statement of a native model or a builtin runs the
// call in the new goroutine under every schedule, including natives that
// are scheduling points and block (go mu.Lock()).
func TestGoNative(t *testing.T) {
	cases := []struct {
		arg, out string
		wait     string // a leak of one goroutine with this wait reason
	}{
		{"wg", "wg ok\n", ""},
		{"close", "close ok false\n", ""},
		{"unlock", "unlock ok\n", ""},
		{"println", "hello 42\n", ""},
		{"send", "7\n", ""},
		{"lock", "", "sync.Mutex.Lock"},
	}
	prog, err := load.Load(load.Config{Dir: filepath.Join("testdata", "gostmt")})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		t.Run(c.arg, func(t *testing.T) {
			m := vm.New(prog, vm.Options{Args: []string{c.arg}, Checks: vm.Checks{Leak: true, Race: true}, Sanity: true})
			e, err := m.FindEntry("main")
			if err != nil {
				t.Fatal(err)
			}
			for seed := uint64(1); seed <= 20; seed++ {
				s, _, _ := trace.RandomRun(m, e, seed, 10000, nil)
				err := s.Err()
				if c.wait != "" {
					if err == nil || err.Kind != vm.KindLeak || len(err.Goroutines) != 1 || err.Goroutines[0].Wait != c.wait {
						t.Fatalf("seed %d: got %s, want a leak of one goroutine [%s]", seed, errString(err), c.wait)
					}
					continue
				}
				if err != nil || !s.Exited() {
					t.Fatalf("seed %d: got %s (exited %v), want a normal exit", seed, errString(err), s.Exited())
				}
				if got := s.Output(0); got != c.out {
					t.Fatalf("seed %d: output %q, want %q", seed, got, c.out)
				}
			}
		})
	}
}

// TestNativeResultAfterCall: a native that runs Go code and then returns
// a value (t.Run's bool) delivers it to its caller.
func TestNativeResultAfterCall(t *testing.T) {
	prog, err := load.Load(load.Config{Dir: filepath.Join("testdata", "gostmt")})
	if err != nil {
		t.Fatal(err)
	}
	m := vm.New(prog, vm.Options{})
	e, err := m.FindEntry("TestRunResult")
	if err != nil {
		t.Fatal(err)
	}
	s, _, _ := trace.RandomRun(m, e, 1, 10000, nil)
	if got, want := s.Output(0), "run: true\nrun: false\n"; got != want {
		t.Errorf("output %q, want %q", got, want)
	}
	if err := s.Err(); err == nil || err.Kind != vm.KindAssert {
		t.Errorf("got %s, want the failure of the subtest", errString(err))
	}
}
