package guide

import (
	"context"
	"testing"
	"time"

	"github.com/gmc-go/gmc/vm"
)

// TestPreemptionBounds checks the iterated bounded search on the seed's
// reorder model: the buggy version's error is found, the fixed one with
// three workers is exhausted, and with a state limit the fixed one with
// ten workers gets a no-error that states a preemption bound (or is
// exhausted), never an error.
func TestPreemptionBounds(t *testing.T) {
	if testing.Short() {
		t.Skip("loads benchmark programs")
	}
	run := func(pkg string, args []string, maxStates int) Result {
		prog, opts, e := loadMain(t, "./benchmarks/"+pkg, args)
		m := vm.New(prog, opts)
		return Search(context.Background(), m, e, Config{Strategy: Exhaustive, MaxStates: maxStates, TimeLimit: time.Minute})
	}
	if r := run("reorder", []string{"2", "1"}, 0); r.Verdict != VerdictError || len(r.Choices) == 0 {
		t.Errorf("reorder 2 1: %s, want error", r.Verdict)
	}
	if r := run("reorder_fixed", []string{"3", "1"}, 0); r.Verdict != VerdictNoError || !r.Exhausted {
		t.Errorf("reorder_fixed 3 1: %s exhausted=%v, want no-error exhausted", r.Verdict, r.Exhausted)
	}
	r := run("reorder_fixed", []string{"10", "1"}, 30000)
	if r.Verdict != VerdictNoError || r.Exhausted {
		t.Errorf("reorder_fixed 10 1 (30,000 states): %s exhausted=%v, want no-error with a bound", r.Verdict, r.Exhausted)
	}
	t.Logf("reorder_fixed 10 1: no-error up to %d preemptions (%d states)", r.Preemptions, r.Stats.States)
}

// TestResumedSearch checks that the exhaustive strategy's rounds go on
// where the last one paused: on a space that is one long path, the
// bounded search runs it once (and the full search, a quarter of each
// round's states and first, about 60 % of it beside), where searches that
// start again from the root every round (budgets doubling from 1,000
// states) take about four times the path (25,002 states for 6,002).
func TestResumedSearch(t *testing.T) {
	prog, opts, e := loadMain(t, "./guide/testdata/longpath", nil)
	m := vm.New(prog, opts)
	r := Search(context.Background(), m, e, Config{Strategy: Exhaustive, TimeLimit: time.Minute})
	if r.Verdict != VerdictNoError || !r.Exhausted {
		t.Fatalf("longpath: %s exhausted=%v, want no-error exhausted", r.Verdict, r.Exhausted)
	}
	if r.Stats.MaxDepth < 6000 || r.Stats.States > r.Stats.MaxDepth*2 {
		t.Errorf("longpath: %d states for a path of %d transitions; want at least 6,000 and at most twice as many states", r.Stats.States, r.Stats.MaxDepth)
	}
}
