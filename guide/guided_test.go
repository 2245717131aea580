package guide

import (
	"context"
	"testing"
	"time"

	"github.com/gmc-go/gmc/heuristics"
	"github.com/gmc-go/gmc/vm"
	"github.com/gmc-go/gmc/vm/trace"
)

// TestGuidedFindsHardModels checks the heart of the guided search on the
// seed's Table 3.1 models where randomized DFS fails (TwoStage(10,1),
// Reorder(8,1)) and on Wronglock(1,20): the meta heuristic with PFSM finds
// the panic on every seed within a bound on states (the seed reports a few
// hundred; the bound leaves room), and the counterexample replays on a
// fresh machine to the same panic. Bounds count states, so the outcome
// does not depend on the machine's load.
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
		for seed := uint64(1); seed <= 3; seed++ {
			cfg := CheckConfig{Options: opts, Entry: e, Auto: true, Strategy: Guided,
				Heuristic: heuristics.SecPFSM, Seed: seed, Trials: 1, TimeLimit: 2 * time.Minute,
				MaxDepth: 100000, Fallback: "none"}
			res, err := Check(context.Background(), prog, cfg)
			if err != nil {
				t.Fatal(err)
			}
			if res.Best == nil {
				t.Errorf("%s %v seed %d: not found (%s)", tc.pkg, tc.args, seed, res.Verdict)
				continue
			}
			r := res.Best.Result
			fe := r.Final.Err()
			if fe == nil || fe.Kind != vm.KindPanic {
				t.Errorf("%s %v seed %d: found %v, want a panic", tc.pkg, tc.args, seed, fe)
				continue
			}
			if r.Stats.States > tc.maxStates {
				t.Errorf("%s %v seed %d: %d states, want at most %d", tc.pkg, tc.args, seed, r.Stats.States, tc.maxStates)
			}
			t.Logf("%s %v seed %d: %d states, %d refinements, %d transitions", tc.pkg, tc.args, seed, r.Stats.States, r.Stats.Refinements, len(r.Choices))
			bps, err := trace.ResolveBreakpoints(prog, trace.BreakpointSpecs(res.Best.Machine))
			if err != nil {
				t.Fatal(err)
			}
			o := res.Best.Machine.Options()
			o.Breakpoints = bps
			final, _, err := trace.Replay(vm.New(prog, o), e, r.Choices, nil)
			if err != nil || final.Err() == nil || final.Err().Msg != fe.Msg {
				t.Errorf("%s %v seed %d: replay gives %v, %v; want %q", tc.pkg, tc.args, seed, final.Err(), err, fe.Msg)
			}
		}
	}
}
