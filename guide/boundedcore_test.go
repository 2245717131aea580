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

// coreCheck runs the default check's portfolio on entry of pkg with the
// bounded search on a core of its own (Parallel 2, one trial); alone
// leaves the other side nothing to do (no trace sets, no fallback), so
// that the core's search decides the verdict.
func coreCheck(t *testing.T, pkg, entry string, args []string, alone bool, limit time.Duration) (TrialResult, vm.Entry) {
	t.Helper()
	prog, err := load.Load(load.Config{Dir: "..", Patterns: []string{pkg}})
	if err != nil {
		t.Fatal(err)
	}
	opts := vm.Options{Args: args, Checks: vm.Checks{Race: true, Leak: true}}
	e, err := vm.New(prog, opts).FindEntry(entry)
	if err != nil {
		t.Fatal(err)
	}
	cfg := CheckConfig{Options: opts, Entry: e, Auto: !alone, Bounded: true, Strategy: Guided,
		Heuristic: heuristics.SecPFSM, Seed: 1, Trials: 1, Parallel: 2, TimeLimit: limit,
		MaxDepth: 100000, MaxBacktrack: 100000, Monitors: Monitors{LockGraph: true}}
	if alone {
		cfg.Fallback = "none"
	}
	tr, err := Prepare(prog, cfg)
	if err != nil {
		t.Fatal(err)
	}
	return tr.Run(context.Background(), 0), e
}

// TestBoundedCoreVerdicts: with a core to spare (--parallel 2), the
// bounded search runs on it beside the guided search and the walks, and
// its verdicts are the trial's: an error it finds replays on the machine
// the trial names (its sync-only scheduling points), a passing test gets
// its completed bound, whichever side ends first.
func TestBoundedCoreVerdicts(t *testing.T) {
	for _, c := range []struct {
		name, pkg, entry string
		args             []string
		alone, buggy     bool
	}{
		{"airline/core", "./benchmarks/airline", "main", []string{"4", "1"}, true, true},
		{"airline/portfolio", "./benchmarks/airline", "main", []string{"4", "1"}, false, true},
		{"deadlock/core", "./benchmarks/deadlock", "main", nil, true, true},
		{"deadlock/portfolio", "./benchmarks/deadlock", "main", nil, false, true},
		{"workers/core", "./guide/testdata/workers", "TestN8L4", nil, true, false},
		{"workers/portfolio", "./guide/testdata/workers", "TestN8L4", nil, false, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			limit := 20 * time.Second
			if !c.buggy {
				limit = 3 * time.Second // (bound 0 takes a fraction of it)
			}
			b, e := coreCheck(t, c.pkg, c.entry, c.args, c.alone, limit)
			r := b.Result
			if !c.buggy {
				if r.Verdict != VerdictNoError || !(r.Exhausted || r.Preemptions >= 0) {
					t.Fatalf("verdict %s (exhausted %v, preemptions %d), want no error with a bound", r.Verdict, r.Exhausted, r.Preemptions)
				}
				if r.Stats.States == 0 {
					t.Errorf("no states counted")
				}
				return
			}
			if r.Verdict != VerdictError {
				t.Fatalf("verdict %s, want an error", r.Verdict)
			}
			final, _, err := trace.Replay(b.Machine, e, r.Choices, nil)
			if err != nil {
				t.Fatalf("the counterexample does not replay: %v", err)
			}
			if final.Err() == nil || final.Err().Kind != r.Final.Err().Kind {
				t.Fatalf("replayed to %v, want %v", final.Err(), r.Final.Err())
			}
		})
	}
}
