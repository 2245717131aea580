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

// TestForcedChainLookups checks that bound 0 looks up the links of the
// chains it forces only while such lookups merge paths (forcedPay): on
// the fixed twin of abslist, where none does, it explores the same
// states with a fraction of the lookups of a search that looks up every
// link, and completes; the buggy twin's error is still found by the
// iterated bounded search.
func TestForcedChainLookups(t *testing.T) {
	if testing.Short() {
		t.Skip("loads benchmark programs")
	}
	bound0 := func(pkg string, args []string, always bool) (*boundSearch, int) {
		prog, opts, e := loadMain(t, "./benchmarks/"+pkg, args)
		opts.Checks = vm.Checks{Leak: true, Race: true}
		opts, _ = syncOnly(opts)
		m := vm.New(prog, opts)
		se := newSearcher(context.Background(), m, Config{TimeLimit: time.Minute, MaxDepth: 1000000})
		bs := newBoundSearch(0)
		bs.pay.always = always
		se.resumeBounded(startObserved(m, e, nil), bs, 0)
		bs.rb.close()
		return bs, se.stats.States
	}
	all, allStates := bound0("abslist_fixed", []string{"1", "5"}, true)
	bs, states := bound0("abslist_fixed", []string{"1", "5"}, false)
	t.Logf("abslist_fixed 1 5 at bound 0: %d states, %d lookups; looking up every link: %d states, %d lookups",
		states, bs.lookups, allStates, all.lookups)
	if !bs.out.complete || bs.out.found != nil || !all.out.complete {
		t.Fatalf("abslist_fixed 1 5: complete=%v error=%v (every link: complete=%v), want complete without error",
			bs.out.complete, bs.out.found != nil, all.out.complete)
	}
	if states != allStates || 2*bs.lookups > all.lookups {
		t.Errorf("abslist_fixed 1 5: %d states and %d lookups, want %d states and at most half of %d lookups",
			states, bs.lookups, allStates, all.lookups)
	}
	prog, opts, e := loadMain(t, "./benchmarks/abslist", []string{"1", "4"})
	r := Search(context.Background(), vm.New(prog, opts), e, Config{Strategy: Exhaustive, TimeLimit: time.Minute})
	if r.Verdict != VerdictError {
		t.Errorf("abslist 1 4: %s, want error", r.Verdict)
	}
}
