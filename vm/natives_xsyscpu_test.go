package vm_test

import (
	"testing"

	"github.com/gmc-go/gmc/vm"
	"github.com/gmc-go/gmc/vm/load"
	"github.com/gmc-go/gmc/vm/trace"
)

// TestXsysCPU: a program importing golang.org/x/sys/cpu runs (its init's
// cpuid and xgetbv are assembly: every test of such a package stopped at
// the OS boundary, bytedance/gopkg's circuitbreaker among them) and sees
// a processor without optional features; an array pointer over a string's
// bytes reads them (it stopped the run with an internal error). Go's own
// run prints the host's features on the first line and the same words on
// the second.
func TestXsysCPU(t *testing.T) {
	want := "features: false false false\n0x3736353433323130 0x6139383736353433\n"
	prog, err := load.Load(load.Config{Dir: "testdata/xsyscpu"})
	if err != nil {
		t.Fatal(err)
	}
	m := vm.New(prog, vm.Options{})
	e, err := m.FindEntry("main")
	if err != nil {
		t.Fatal(err)
	}
	s, _, _ := trace.RandomRun(m, e, 1, 1e6, nil)
	if verr := s.Err(); verr != nil {
		t.Fatalf("%s: %s", verr.Kind, verr.Msg)
	}
	if got := s.Output(0); got != want {
		t.Errorf("output %q, want %q", got, want)
	}
}

// TestPoolCleanupLinkname: a pool of its own that registers its cleanup
// with sync's runtime hook by //go:linkname (bytedance/gopkg's
// syncx.Pool) runs; the VM's collections never empty a pool, so the
// cleanup is not called (testdata/poolcleanup: go run prints true, a
// collection there calls it). The call stopped the run as unsupported. So
// did runtime.cmpstring (bytedance/gopkg's skipmap), which compares as
// go run does.
func TestPoolCleanupLinkname(t *testing.T) {
	prog, err := load.Load(load.Config{Dir: "testdata/poolcleanup"})
	if err != nil {
		t.Fatal(err)
	}
	m := vm.New(prog, vm.Options{})
	e, err := m.FindEntry("main")
	if err != nil {
		t.Fatal(err)
	}
	s, _, _ := trace.RandomRun(m, e, 1, 1e6, nil)
	if verr := s.Err(); verr != nil {
		t.Fatalf("%s: %s", verr.Kind, verr.Msg)
	}
	if got, want := s.Output(0), "cleanups: false\n-1 1 0 -1\n"; got != want {
		t.Errorf("output %q, want %q", got, want)
	}
}
