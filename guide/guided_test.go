package guide

import (
	"context"
	"testing"
	"time"

	"github.com/gmc-go/gmc/heuristics"
	"github.com/gmc-go/gmc/vm"
	"github.com/gmc-go/gmc/vm/load"
	"github.com/gmc-go/gmc/vm/trace"
)

// TestGuidedFindsHardModels checks the heart of the guided search on the
// seed's Table 3.1 models where randomized DFS fails (TwoStage(10,1),
// Reorder(8,1)) and on Wronglock(1,20): the meta heuristic with PFSM finds
// the panic on every seed within a bound on states (the seed reports a few
// hundred; the bound leaves room), and the counterexample replays on a
// fresh machine to the same panic. Bounds count states, so the outcome
// does not depend on the machine's load. Both the lazy successors (the
// default: choices ranked before they run) and the seed's eager ones
// (CheckConfig.Eager, seed 1) find them, and the lazy search runs fewer
// states than the eager one (it runs one successor of a state where the
// eager one runs all).
func TestGuidedFindsHardModels(t *testing.T) {
	if testing.Short() {
		t.Skip("loads three benchmark programs")
	}
	cases := []struct {
		pkg       string
		args      []string
		maxStates int
	}{
		{"./benchmarks/twostage", []string{"10", "1"}, 5000},
		{"./benchmarks/reorder", []string{"8", "1"}, 5000},
		{"./benchmarks/wronglock", []string{"1", "20"}, 5000},
	}
	for _, tc := range cases {
		prog, opts, e := loadMain(t, tc.pkg, tc.args)
		lazy := 0
		for seed := uint64(1); seed <= 3; seed++ {
			n := checkHard(t, prog, opts, e, tc.pkg, tc.args, seed, false, tc.maxStates)
			if seed == 1 {
				lazy = n
			}
		}
		if eager := checkHard(t, prog, opts, e, tc.pkg, tc.args, 1, true, tc.maxStates); lazy >= eager {
			t.Errorf("%s %v seed 1: lazy successors ran %d states, eager ones %d", tc.pkg, tc.args, lazy, eager)
		}
	}
}

// checkHard runs one guided check of TestGuidedFindsHardModels and
// returns its states.
func checkHard(t *testing.T, prog *load.Program, opts vm.Options, e vm.Entry, pkg string, args []string, seed uint64, eager bool, maxStates int) int {
	t.Helper()
	cfg := CheckConfig{Options: opts, Entry: e, Auto: true, Strategy: Guided,
		Heuristic: heuristics.SecPFSM, Seed: seed, Trials: 1, TimeLimit: 2 * time.Minute,
		MaxDepth: 100000, Fallback: "none", Eager: eager}
	res, err := Check(context.Background(), prog, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if res.Best == nil {
		t.Errorf("%s %v seed %d eager=%v: not found (%s)", pkg, args, seed, eager, res.Verdict)
		return 0
	}
	r := res.Best.Result
	fe := r.Final.Err()
	if fe == nil || fe.Kind != vm.KindPanic {
		t.Errorf("%s %v seed %d eager=%v: found %v, want a panic", pkg, args, seed, eager, fe)
		return r.Stats.States
	}
	if r.Stats.States > maxStates {
		t.Errorf("%s %v seed %d eager=%v: %d states, want at most %d", pkg, args, seed, eager, r.Stats.States, maxStates)
	}
	t.Logf("%s %v seed %d eager=%v: %d states, %d refinements, %d transitions", pkg, args, seed, eager, r.Stats.States, r.Stats.Refinements, len(r.Choices))
	bps, err := trace.ResolveBreakpoints(prog, trace.BreakpointSpecs(res.Best.Machine))
	if err != nil {
		t.Fatal(err)
	}
	o := res.Best.Machine.Options()
	o.Breakpoints = bps
	final, _, err := trace.Replay(vm.New(prog, o), e, r.Choices, nil)
	if err != nil || final.Err() == nil || final.Err().Msg != fe.Msg {
		t.Errorf("%s %v seed %d eager=%v: replay gives %v, %v; want %q", pkg, args, seed, eager, final.Err(), err, fe.Msg)
	}
	return r.Stats.States
}
