package guide

import (
	"context"
	"time"

	"github.com/gmc-go/gmc/abstract"
	"github.com/gmc-go/gmc/heuristics"
	"github.com/gmc-go/gmc/vm"
	"github.com/gmc-go/gmc/vm/load"
	"github.com/gmc-go/gmc/vm/loc"
)

// setRun is the guided search of a trial along one trace set (runTrial):
// the set as refined so far and the search under way, which a refinement
// does not end (resume).
type setRun struct {
	idx         int // the index of a plan's set (-1: a lock-graph prediction's)
	round       int // the last round that searched it
	ts          *abstract.TraceSet
	refined     int
	stopOnStall bool
	unrefinable map[loc.Loc]bool
	exhausted   bool
	// probe bounds the states of a resumed search (0: not resumed): one
	// that spends a quarter of the stalled path's transitions (at least
	// 16) without stalling again or finding the error starts again from
	// the initial state (runTrial), which reaches the refined set's next
	// stall in about as many as the path had; a resumed search that
	// succeeds needs a few, the transitions of the steps the refinement
	// added
	probe int

	g    *guided // nil: none under way
	m    *vm.Machine
	bps  map[loc.Loc]bool // m's breakpoints
	root *vm.State
	// solver statistics of root at the end of the last run (the search's
	// states share root's solver)
	solverCalls int
	solverTime  time.Duration
}

// meta is the ranker of the set as refined so far.
func (sr *setRun) meta(cfg CheckConfig, pl *plan) *heuristics.Meta {
	return &heuristics.Meta{TS: sr.ts, Sec: cfg.Heuristic, Dist: pl.distance(), GoalTargets: pl.goal}
}

// start starts a guided search of the set (trace set sr.idx of pl) from
// the initial state, on a machine with the set's breakpoints.
func (sr *setRun) start(ctx context.Context, prog *load.Program, pl *plan, cfg CheckConfig, sc Config) {
	meta := sr.meta(cfg, pl)
	if sr.refined == 0 && sr.idx >= 0 {
		sr.m = pl.machineFor(prog, cfg.Options, sr.idx, meta)
	} else {
		o := cfg.Options
		o.Breakpoints = meta.Breakpoints()
		sr.m = vm.New(prog, o)
	}
	sr.bps = map[loc.Loc]bool{}
	for _, l := range meta.Breakpoints() {
		sr.bps[l] = true
	}
	c := sc
	c.Ranker = stallFilter{meta, sr.unrefinable}
	se := newSearcher(ctx, sr.m, c)
	sr.root = startObserved(sr.m, cfg.Entry, sc.Locks)
	sr.g = newGuided(se, sr.root)
	sr.probe = 0
	sr.g.ignore = sr.unrefinable
	sr.solverCalls, sr.solverTime = 0, 0
}

// run goes on with the search for at most left more states and limit
// more time (0: none); the result's statistics are this run's.
func (sr *setRun) run(left int, limit time.Duration) Result {
	se := sr.g.se
	before := se.stats
	se.cfg.MaxStates = before.States + left
	se.cfg.TimeLimit = limit
	se.cfg.StopOnStall = sr.stopOnStall
	se.start = time.Now()
	r := sr.g.run()
	d := se.stats
	d.States -= before.States
	d.Transitions -= before.Transitions
	d.Instructions -= before.Instructions
	d.Backtracks -= before.Backtracks
	d.Time = r.Stats.Time
	d.PeakMem = r.Stats.PeakMem
	d.BestLevel = r.Stats.BestLevel
	calls, t := sr.root.SolverStats()
	d.SolverCalls, d.SolverTime = calls-sr.solverCalls, t-sr.solverTime
	sr.solverCalls, sr.solverTime = calls, t
	r.Stats = d
	return r
}

// resume makes the search stopped at a stall go on with the refined set
// sr.ts, old refined at its trace i (guided.rebase): the states it saved
// are ranked against it, and it goes on with the best of them in the
// prefix the refinement keeps. It cannot when the refinement invalidated
// that prefix: no saved state is in it, or the refined set has steps at
// locations that are no breakpoints of the machine the search runs on, so
// that no state so far stopped a goroutine at them and no path so far can
// have matched them. It reports whether it resumed.
func (sr *setRun) resume(cfg CheckConfig, pl *plan, old *abstract.TraceSet, i int) bool {
	if sr.g == nil {
		return false
	}
	// the first step of trace i the refinement changed
	a, b := old.Traces[i].Steps, sr.ts.Traces[i].Steps
	diff := 0
	for diff < len(a) && diff < len(b) && a[diff] == b[diff] {
		diff++
	}
	meta := sr.meta(cfg, pl)
	for _, l := range meta.Breakpoints() {
		if !sr.bps[l] {
			return false
		}
	}
	depth := sr.g.stalled.path.depth
	if !sr.g.rebase(stallFilter{meta, sr.unrefinable}, i, diff) {
		return false
	}
	sr.probe = max(16, depth/4)
	return true
}

// toRun counts the sets of queue a round has still to search: not yet
// searched in round and not exhausted.
func toRun(queue []*setRun, round int) int {
	n := 0
	for _, sr := range queue {
		if sr.round != round && !sr.exhausted {
			n++
		}
	}
	return n
}

// nothingToChase reports whether the guided search of a round has no
// trace set to follow: the plan has none (no target is reachable in the
// abstract model, or the planning ran out of its time) or the search of
// every set ended inside its bound, and the lock-graph monitor predicted
// nothing.
func nothingToChase(runs, pruns []*setRun) bool {
	done := func(sr *setRun) bool { return sr.exhausted }
	return allExhausted(runs, done) && allExhausted(pruns, done)
}

// allExhausted reports whether done holds for every element of xs.
func allExhausted[T any](xs []T, done func(T) bool) bool {
	for _, x := range xs {
		if !done(x) {
			return false
		}
	}
	return true
}

// stallFilter hides the stalls at branches refinement cannot help.
type stallFilter struct {
	*heuristics.Meta
	skip map[loc.Loc]bool
}

func (f stallFilter) Rank(parent RankState, child *vm.State, c vm.Choice) RankState {
	r := f.Meta.Rank(parent, child, c)
	if r.Stalled != nil && f.skip[r.Stalled.Branch] {
		r.Stalled = nil
	}
	return r
}
