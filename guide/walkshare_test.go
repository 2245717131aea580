package guide

import (
	"context"
	"testing"
	"time"

	"github.com/gmc-go/gmc/heuristics"
	"github.com/gmc-go/gmc/vm"
	"github.com/gmc-go/gmc/vm/load"
)

// TestWalkShare: where states are slow (testdata/slowstates: milliseconds
// a state), the default check's portfolio still gives the fallback's
// random walks their share of the time (walkShare): the bounded search's
// first round and the trace sets are cut by time (turnCap) and the walks
// take turns between them (runTrial's walkUp). Before, round 0 of the
// bounded search had 1,000 states and no time cap, and took the whole
// limit (alitto/pond#105's test with 100 submitters: 56 s of 60).
func TestWalkShare(t *testing.T) {
	prog, err := load.Load(load.Config{Dir: "..", Patterns: []string{"./guide/testdata/slowstates"}})
	if err != nil {
		t.Fatal(err)
	}
	opts := vm.Options{Checks: vm.Checks{Race: true, Leak: true}}
	e, err := vm.New(prog, opts).FindEntry("TestSlow")
	if err != nil {
		t.Fatal(err)
	}
	cfg := CheckConfig{Options: opts, Entry: e, Auto: true, Bounded: true, Strategy: Guided,
		Heuristic: heuristics.SecPFSM, Seed: 1, Trials: 1, Parallel: 1, TimeLimit: 5 * time.Second,
		MaxDepth: 100000, MaxBacktrack: 100000, FallbackTimers: true}
	tr, err := Prepare(prog, cfg)
	if err != nil {
		t.Fatal(err)
	}
	res := tr.Run(context.Background(), 0)
	if res.Result.Verdict == VerdictError {
		t.Fatalf("an error on a correct test: %v", res.Result.Final.Err())
	}
	total := res.Result.Stats.Time
	t.Logf("%s: %d states in %v, the walks %v", res.Result.Verdict, res.Result.Stats.States, total, res.walkTime)
	// (a share, not a wall time: walkShare is a sixth, less the last
	// turn's lag)
	if res.walkTime < total/12 {
		t.Errorf("the walks took %v of %v, want at least a twelfth", res.walkTime, total)
	}
}
