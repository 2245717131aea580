package vm_test

import (
	"strings"
	"testing"

	"github.com/gmc-go/gmc/vm"
	"github.com/gmc-go/gmc/vm/load"
	"github.com/gmc-go/gmc/vm/trace"
)

// TestCgo: C code is outside the VM. Reading or writing a C variable and
// calling a C function stop the entry as unsupported at the line of the
// user's code (not in the files cgo generates), instead of reading the
// zero of the Go variable cgo declares for the C symbol (before: TestCounter
// failed, a false alarm); the package's plain Go runs.
func TestCgo(t *testing.T) {
	prog, err := load.Load(load.Config{Dir: "testdata/cgo"})
	if err != nil {
		t.Skipf("the cgo test package does not build here (no C compiler?): %v", err)
	}
	m := vm.New(prog, vm.Options{Checks: vm.Checks{Race: true, Leak: true}})
	for _, c := range []struct{ entry, msg string }{
		{"TestCounter", "unsupported: the C variable C.counter (cgo: C memory is outside the VM) at cgo.go:12:"},
		{"TestSetCounter", "unsupported: the C variable C.counter (cgo: C memory is outside the VM) at cgo.go:15:"},
		{"TestAdd", "unsupported: a call of C code (cgo: C functions are outside the VM) in C.add at cgo.go:18:"},
		{"TestTwice", ""},
	} {
		e, err := m.FindEntry(c.entry)
		if err != nil {
			t.Fatal(err)
		}
		s, _, _ := trace.RandomRun(m, e, 1, 1e6, nil)
		got := s.Err()
		switch {
		case c.msg == "" && got != nil:
			t.Errorf("%s: %s", c.entry, errString(got))
		case c.msg != "" && (got == nil || got.Kind != vm.KindUnsupported || !strings.Contains(got.Msg, c.msg)):
			t.Errorf("%s: %s; want unsupported %q", c.entry, errString(got), c.msg)
		}
	}
}
