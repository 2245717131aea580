package guide

import (
	"context"
	"time"

	"github.com/gmc-go/gmc/vm"
	"github.com/gmc-go/gmc/vm/load"
)

// The fallback of a guided check. Guided search follows abstract traces
// toward targets; an error it has no target for (typically a goroutine
// leak, which shows only when the entry returns) can lie far from every
// trace. A trial of a guided check with a fallback strategy therefore runs
// in rounds: the guided trial (runTrial) for a time slice, then the
// fallback search (a random walk, by default) for as long, then both again
// with twice the slice, until one finds an error, the guided search
// exhausts the state space, or the time limit is reached. Each guided
// round restarts from the initial state with the same seed (it repeats the
// previous round's work, at most doubling the total); each fallback round
// uses a new seed.
//
// Which strategy finds the error first depends on how much each does in
// its slice of wall time, so under a different load the counterexample
// may differ; the counterexample itself always replays.

// firstSlice is the time of the first round of each strategy.
const firstSlice = 250 * time.Millisecond

// fallbackOf returns the fallback strategy of cfg: cfg.Fallback, where ""
// means a random walk for test, fuzz and function entries (whose leaks and
// deadlocks have no target) and none for main; "none" disables it.
func fallbackOf(cfg CheckConfig) Strategy {
	switch cfg.Fallback {
	case "none":
		return ""
	case "":
		if cfg.Entry.Kind == vm.EntryMain {
			return ""
		}
		return Random
	}
	return cfg.Fallback
}

// runWithFallback runs one trial of a check, alternating the guided search
// with its fallback as described above.
func runWithFallback(ctx context.Context, prog *load.Program, base *vm.Machine, pl *plan, cfg CheckConfig) TrialResult {
	fb := fallbackOf(cfg)
	if pl == nil || fb == "" || fb == Guided {
		return runTrial(ctx, prog, base, pl, cfg)
	}
	start := time.Now()
	var total Stats
	add := func(s Stats) {
		total.States += s.States
		total.Transitions += s.Transitions
		total.Instructions += s.Instructions
		total.Backtracks += s.Backtracks
		total.Refinements += s.Refinements
		total.SolverCalls += s.SolverCalls
		total.SolverTime += s.SolverTime
		total.MaxDepth = max(total.MaxDepth, s.MaxDepth)
		total.PeakMem = max(total.PeakMem, s.PeakMem)
	}
	finish := func(tr TrialResult) TrialResult {
		add(tr.Result.Stats)
		tr.Result.Stats = total
		tr.Result.Stats.Time = time.Since(start)
		tr.Seed = cfg.Seed
		return tr
	}
	for round, slice := 0, firstSlice; ; round, slice = round+1, slice*2 {
		for _, guided := range []bool{true, false} {
			d := slice
			if cfg.TimeLimit > 0 {
				left := cfg.TimeLimit - time.Since(start)
				if left <= 0 || ctx.Err() != nil {
					return finish(TrialResult{Seed: cfg.Seed, Result: Result{Verdict: VerdictUnknown}, Machine: base})
				}
				d = min(d, left)
			}
			var tr TrialResult
			if guided {
				c := cfg
				c.TimeLimit = d
				if round > 0 {
					c.Progress = nil
				}
				tr = runTrial(ctx, prog, base, pl, c)
			} else {
				sc := Config{Strategy: fb, Seed: cfg.Seed + uint64(round)*0x9e3779b9, MaxDepth: cfg.MaxDepth,
					MaxBacktrack: cfg.MaxBacktrack, TimeLimit: d}
				tr = TrialResult{Seed: cfg.Seed, Result: Search(ctx, base, cfg.Entry, sc), Machine: base}
			}
			switch tr.Result.Verdict {
			case VerdictError:
				return finish(tr)
			case VerdictNoError:
				if guided || fb != Random { // the space is exhausted: no error
					return finish(tr)
				}
			}
			add(tr.Result.Stats)
		}
	}
}
