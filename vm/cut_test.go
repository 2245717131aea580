package vm_test

import (
	"testing"

	"github.com/gmc-go/gmc/vm"
)

// TestStepWithinCut: a transition still running at StepWithin's deadline
// ends within a clock reading's worth of instructions (cutPoll) and says so
// (Cut); without a deadline, or with one far off, the same step runs to
// its scheduling point (a preemption after 2^20 instructions at the
// loop's back jump) and is no cut.
func TestStepWithinCut(t *testing.T) {
	m, e := machine(t, "longstep", vm.Options{})
	s := m.Start(e)
	s = m.Step(s, choiceOf(s, 1)) // (the entry's first read of a global)
	idx := choiceOf(s, 1)
	if idx < 0 {
		t.Fatal("main cannot run")
	}
	whole := m.Step(s, idx)
	cut := m.StepWithin(s, idx, 1) // (a deadline long past)
	far := m.StepWithin(s, idx, 1<<62)
	if whole.Cut() || far.Cut() {
		t.Errorf("a step without a deadline, or before it, is cut")
	}
	if !cut.Cut() || cut.Err() != nil {
		t.Fatalf("a step past its deadline is not cut (cut %v, err %v)", cut.Cut(), errString(cut.Err()))
	}
	if n := cut.Instructions() - s.Instructions(); n < vm.CutPoll || n > 2*vm.CutPoll {
		t.Errorf("the cut step ran %d instructions, want about %d (cutPoll)", n, vm.CutPoll)
	}
	if n, w := far.Instructions()-s.Instructions(), whole.Instructions()-s.Instructions(); n != w || n < 1<<20 {
		t.Errorf("the step before its deadline ran %d instructions, without one %d (want the same, at least 2^20)", n, w)
	}
}
