package guide

import (
	"context"
	"testing"

	"github.com/gmc-go/gmc/vm"
	"github.com/gmc-go/gmc/vm/trace"
)

// TestSteeredWalk checks that a random walk observed by the predictive
// monitor shows a predicted race in the run after the one that predicted
// it (racefuzz.go), where the same walk without the monitor does not
// show it within the same budget: testdata/predict/prefix, whose race
// needs the worker to take the lock before main, which a walk does with
// a probability of about 2^-12. The race comes with its prediction and
// replays.
func TestSteeredWalk(t *testing.T) {
	prog, opts, e := loadMain(t, "./guide/testdata/predict/prefix", []string{"12"})
	opts.Checks.Race = true
	m := vm.New(prog, opts)
	const budget = 3000
	plain := Search(context.Background(), m, e, Config{Strategy: Random, Seed: 1, MaxStates: budget, Locks: NewLockGraph()})
	if plain.Verdict != VerdictUnknown {
		t.Fatalf("without prediction: verdict %s after %d runs, want unknown (the test's premise)", plain.Verdict, plain.Stats.Backtracks)
	}
	mon := NewMonitor(Monitors{LockGraph: true, Predict: true})
	r := Search(context.Background(), m, e, Config{Strategy: Random, Seed: 1, MaxStates: budget, Locks: mon})
	if r.Verdict != VerdictError || r.Final.Err().Kind != vm.KindRace {
		t.Fatalf("with prediction: verdict %s after %d runs, want a race", r.Verdict, r.Stats.Backtracks)
	}
	if r.Stats.Backtracks > 2 {
		t.Errorf("the race took %d runs, want at most 3", r.Stats.Backtracks+1)
	}
	if p := PredictionShown(prog.Fset, mon.Predictions(), r.Final.Err()); p == nil || p.Race == nil {
		t.Errorf("the race shows no prediction (%d made)", len(mon.Predictions()))
	}
	replayed, _, err := trace.Replay(m, e, r.Choices, nil)
	if err != nil || replayed.Err() == nil || replayed.Err().Msg != r.Final.Err().Msg {
		t.Fatalf("the counterexample does not replay: %v, %v", err, replayed.Err())
	}
}
