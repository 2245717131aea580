package guide

import (
	"context"
	"testing"
	"time"
)

// TestExhaustiveTwins checks the exhaustive search (sleep sets) on small
// configurations of the seed's models: it answers no-error on every fixed
// twin (the state space is exhausted) and finds the bug of the buggy one.
func TestExhaustiveTwins(t *testing.T) {
	if testing.Short() {
		t.Skip("loads eight benchmark programs")
	}
	cases := []struct {
		model string
		args  []string
	}{
		{"reorder", []string{"2", "1"}},
		{"twostage", []string{"1", "1"}},
		{"wronglock", []string{"1", "2"}},
		{"deadlock", nil},
	}
	for _, tc := range cases {
		for _, pkg := range []string{tc.model, tc.model + "_fixed"} {
			prog, opts, e := loadMain(t, "./benchmarks/"+pkg, tc.args)
			res, err := Check(context.Background(), prog, CheckConfig{Options: opts, Entry: e,
				Strategy: Exhaustive, Seed: 1, Trials: 1, TimeLimit: 2 * time.Minute, MaxDepth: 100000})
			if err != nil {
				t.Fatal(err)
			}
			want := VerdictError
			if pkg != tc.model {
				want = VerdictNoError
			}
			states := 0
			if len(res.Trials) > 0 {
				states = res.Trials[0].Result.Stats.States
			}
			if res.Verdict != want {
				t.Errorf("%s %v: exhaustive search says %s after %d states, want %s", pkg, tc.args, res.Verdict, states, want)
				continue
			}
			t.Logf("%s %v: %s, %d states", pkg, tc.args, res.Verdict, states)
		}
	}
}
