package vm_test

import (
	"strings"
	"testing"

	"github.com/gmc-go/gmc/vm"
	"github.com/gmc-go/gmc/vm/load"
	"github.com/gmc-go/gmc/vm/trace"
)

// TestExecSelf: tests that re-execute their own test binary
// (testdata/reexec, which passes and fails under go test as it does here)
// see the child's output and exit status as go test's binary gives them —
// a crash (exit status 2, the panic's value), a failed test (status 1, its
// message), a pass — and a wrong expectation of either fails the parent.
// A child with two outcomes under different schedules, and a program other
// than the test binary, stop the parent as unsupported: the first fails
// if the child's own search took one schedule only.
func TestExecSelf(t *testing.T) {
	prog, err := load.Load(load.Config{Dir: "testdata/reexec"})
	if err != nil {
		t.Fatal(err)
	}
	// one machine: the control run (-test.list=^$) is computed once
	m := vm.New(prog, vm.Options{Sched: vm.SchedSync, Checks: vm.Checks{Race: true, Leak: true}})
	for _, c := range []struct {
		entry string
		kind  vm.Kind // "": no error
		msg   string  // in the error's message
	}{
		{"TestChildPanics", "", ""},
		{"TestChildFails", "", ""},
		{"TestChildPasses", "", ""},
		{"TestChildSkips", "", ""},
		{"TestChildOutputs", "", ""},
		{"TestChildPanicsWrongCheck", vm.KindAssert, "panic: boom in child"},
		{"TestChildExitCodeWrong", vm.KindAssert, "Wait: exit status 1; want exit status 2"},
		{"TestChildTwoOutcomes", vm.KindUnsupported, "the re-executed test has 2 outcomes"},
		{"TestOtherCommand", vm.KindUnsupported, "os/exec of /bin/true"},
	} {
		e, err := m.FindEntry(c.entry)
		if err != nil {
			t.Fatal(err)
		}
		for seed := uint64(1); seed <= 2; seed++ {
			s, _, _ := trace.RandomRun(m, e, seed, 1e6, nil)
			got := s.Err()
			switch {
			case c.kind == "" && got != nil:
				t.Errorf("%s (seed %d): %s", c.entry, seed, errString(got))
			case c.kind != "" && (got == nil || got.Kind != c.kind || !strings.Contains(got.Msg, c.msg)):
				t.Errorf("%s (seed %d): %s; want %s with %q", c.entry, seed, errString(got), c.kind, c.msg)
			}
		}
	}
}

// TestBuiltinPanicCall: defer panic(v) and go panic(v) — the builtin
// called in a frame of its own — panic as in Go: the deferred one is
// recovered, the goroutine's crashes the program with its value's Error.
func TestBuiltinPanicCall(t *testing.T) {
	m, e := machine(t, "gopanic", vm.Options{})
	s, _, _ := trace.RandomRun(m, e, 1, 1e6, nil)
	if got := s.Output(1); got != "recovered: deferred builtin panic\n" {
		t.Errorf("output %q", got)
	}
	if err := s.Err(); err == nil || err.Kind != vm.KindPanic || !strings.Contains(err.Msg, "E(go builtin panic)") {
		t.Errorf("error %s; want the panic of E(go builtin panic)", errString(err))
	}
}
