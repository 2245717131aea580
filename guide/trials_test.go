package guide

import (
	"context"
	"slices"
	"testing"
	"time"
)

// TestFirstCounterexampleWins checks the rule of Trials.runAll: without
// AllTrials the result holds trials 0..b, b being the lowest index of a
// trial that finds an error when every trial runs, and the same for 1 and
// 3 trials at a time.
func TestFirstCounterexampleWins(t *testing.T) {
	prog, opts, e := loadMain(t, "./benchmarks/reorder", []string{"1", "1"})
	for _, strat := range []Strategy{RDFS, Random} {
		cfg := CheckConfig{Options: opts, Entry: e, Strategy: strat, Seed: 2, Trials: 8,
			TimeLimit: time.Minute, MaxDepth: 1000}
		all := cfg
		all.AllTrials, all.Parallel = true, 2
		ref, err := Check(context.Background(), prog, all)
		if err != nil {
			t.Fatal(err)
		}
		if len(ref.Trials) != 8 {
			t.Fatalf("%s: AllTrials ran %d trials, want 8", strat, len(ref.Trials))
		}
		first := slices.IndexFunc(ref.Trials, func(tr TrialResult) bool { return tr.Result.Verdict == VerdictError })
		if first < 0 {
			t.Fatalf("%s: no trial found the bug", strat)
		}
		t.Logf("%s: first counterexample in trial %d", strat, first)
		for _, p := range []int{1, 3} {
			c := cfg
			c.Parallel = p
			res, err := Check(context.Background(), prog, c)
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Trials) != first+1 || res.Best == nil || res.Best != &res.Trials[first] {
				t.Fatalf("%s, parallel %d: %d trials, best %v; want trials 0..%d, best %d", strat, p, len(res.Trials), res.Best, first, first)
			}
			if res.Best.Seed != ref.Trials[first].Seed || !slices.Equal(res.Best.Result.Choices, ref.Trials[first].Result.Choices) {
				t.Errorf("%s, parallel %d: counterexample differs from trial %d of the full run", strat, p, first)
			}
			for i := 0; i < first; i++ {
				if res.Trials[i].Result.Verdict != ref.Trials[i].Result.Verdict || res.Trials[i].Result.Stats.States != ref.Trials[i].Result.Stats.States {
					t.Errorf("%s, parallel %d: trial %d differs from the full run", strat, p, i)
				}
			}
		}
	}
}
