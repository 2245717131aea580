package guide

import (
	"context"
	"time"

	"github.com/gmc-go/gmc/vm"
	"github.com/gmc-go/gmc/vm/load"
	"github.com/gmc-go/gmc/vm/trace"
)

// The fallback of a guided check. Guided search follows abstract traces
// toward targets; an error it has no target for (typically a goroutine
// leak, which shows only when the entry returns) can lie far from every
// trace. Every round of a guided trial (runTrial) therefore ends with the
// fallback search under the same bound on states as each trace set (a
// random walk with a new seed each round on test, fuzz and function
// entries; the unguided randomized greedy search on main). Bounds count
// states, not time, so a trial's outcome does not depend on the load.
//
// A round of the random walk runs a plain walk with as many states as all
// trace sets of the round together and, with CheckConfig.FallbackTimers,
// then two walks in real time with as many each:
//   - a walk with timer choices (vm.Options.TimerChoice: real time passes
//     while goroutines run, so a short timer can fire in the middle of a
//     busy loop, which the synctest-like clock never lets happen — GoKer's
//     Grpc3017, a 1ns AfterFunc racing with a loop that stops it);
//   - a walk that imitates Go's scheduler and clock (goWalk*): a sticky
//     scheduler with runnext (trace.Sticky), every transition taking
//     goWalkStepTime (vm.Options.StepTime) and the run ending
//     goWalkGrace transitions after the entry returns, as the process
//     would (vm.Options.EntryGrace). It reaches leaks that need a
//     goroutine to run on for long while timers of different lengths fire
//     in order (GoKer's Istio18454).
// Each walk resumes where it stopped in the previous round.

// The Go-like walk's parameters (see above).
const (
	goWalkStay     = 0.9
	goWalkStepTime = int64(time.Microsecond)
	goWalkGrace    = 10000
)

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

// realTimeMachines returns base with timer choices and base with the
// Go-like walk's clock and end (see above), built once per plan.
func (pl *plan) realTimeMachines(prog *load.Program, base *vm.Machine) (timed, goLike *vm.Machine) {
	pl.mu.Lock()
	defer pl.mu.Unlock()
	if pl.timed == nil {
		o := base.Options()
		o.TimerChoice = true
		pl.timed = vm.New(prog, o)
		o = base.Options()
		o.StepTime, o.EntryGrace = goWalkStepTime, goWalkGrace
		pl.goLike = vm.New(prog, o)
	}
	return pl.timed, pl.goLike
}

// walks are the fallback's random walks of one trial (plain, with timer
// choices, Go-like), resumed from round to round: a round's bound on
// states ends the round, not the walk, so a walk that needs more
// transitions than one round's bound (a kernel looping a thousand times
// before its leak) still gets there.
type walks [3]*walkState

// goWalk is the index of the Go-like walk in a round (plain, timer
// choices, Go-like).
const goWalk = 2

// walkState is where a walk stopped: its state and path.
type walkState struct {
	s *vm.State
	p *pathNode
}

// fallbackRound runs a round of the fallback search cfg names (for a
// random walk, both walks in turn) and returns its result and the machine
// of its states.
func (pl *plan) fallbackRound(ctx context.Context, prog *load.Program, base *vm.Machine, e vm.Entry, cfg Config, timers bool, ws *walks) (Result, *vm.Machine) {
	if cfg.Strategy != Random {
		return Search(ctx, base, e, cfg), base
	}
	ms := []*vm.Machine{base}
	if timers {
		timed, goLike := pl.realTimeMachines(prog, base)
		ms = append(ms, timed, goLike)
	}
	var sum Result
	for kind, m := range ms {
		w := &ws[kind]
		if *w == nil {
			*w = &walkState{s: m.Start(e), p: &pathNode{}}
		}
		se := newSearcher(ctx, m, cfg)
		if kind == goWalk {
			se.sticky = goWalkStay
		}
		r := se.walk(m.Start(e), *w)
		r.Stats.States += sum.Stats.States
		r.Stats.Transitions += sum.Stats.Transitions
		r.Stats.Instructions += sum.Stats.Instructions
		r.Stats.Backtracks += sum.Stats.Backtracks
		r.Stats.MaxDepth = max(r.Stats.MaxDepth, sum.Stats.MaxDepth)
		r.Stats.Time += sum.Stats.Time
		if r.Verdict == VerdictError {
			return r, m
		}
		sum = r
	}
	return sum, base
}

// walk repeats random executions from root, starting where w stopped and
// leaving w where it stops (stateless).
func (se *searcher) walk(root *vm.State, w *walkState) Result {
	for {
		for {
			if isError(w.s) {
				return se.result(VerdictError, w.s, w.p)
			}
			if se.stop(w.p.depth) {
				return se.result(VerdictUnknown, nil, nil)
			}
			se.gids = w.s.AppendChoiceGoroutines(se.gids[:0])
			n := len(se.gids)
			if n == 0 || w.p.depth >= se.cfg.MaxDepth {
				break
			}
			i := trace.Sticky(w.s, se.gids, se.sticky, se.rng)
			w.s = se.step(w.s, i)
			w.p = w.p.child(i)
		}
		se.stats.Backtracks++
		w.s, w.p = root, &pathNode{}
	}
}
