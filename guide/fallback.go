package guide

import (
	"context"

	"github.com/gmc-go/gmc/vm"
	"github.com/gmc-go/gmc/vm/load"
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
// The random walk's rounds alternate between a plain walk and a walk with
// timer choices (vm.Options.TimerChoice: real time passes while goroutines
// run, so a short timer can fire in the middle of a busy loop, which the
// synctest-like clock never lets happen — GoKer's Grpc3017, a 1ns
// AfterFunc racing with a loop that stops it). Each walk resumes where the
// previous round of its kind stopped, and a round of the walk gets as many
// states as all trace sets of the round together.

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

// fallbackMachine returns the machine of the fallback's round: base on
// the plain rounds, base with timer choices on the others.
func (pl *plan) fallbackMachine(prog *load.Program, base *vm.Machine, round int) *vm.Machine {
	if round%2 == 0 || base.Options().TimerChoice {
		return base
	}
	pl.mu.Lock()
	defer pl.mu.Unlock()
	if pl.timed == nil {
		o := base.Options()
		o.TimerChoice = true
		pl.timed = vm.New(prog, o)
	}
	return pl.timed
}

// walks are the fallback's random walks of one trial, one per kind of
// round, resumed from round to round: a round's bound on states ends the
// round, not the walk, so a walk that needs more transitions than one
// round's bound (a kernel looping a thousand times before its leak) still
// gets there.
type walks [2]*walkState

// walkState is where a walk stopped: its state and path.
type walkState struct {
	s *vm.State
	p *pathNode
}

// fallbackSearch runs the fallback's round: for a random walk, the walk of
// the round's kind (plain, with timer choices) resumed where it stopped;
// else the search cfg names.
func fallbackSearch(ctx context.Context, m *vm.Machine, e vm.Entry, cfg Config, round int, ws *walks) Result {
	if cfg.Strategy != Random || ws == nil {
		return Search(ctx, m, e, cfg)
	}
	w := &ws[round%2]
	if *w == nil {
		*w = &walkState{s: m.Start(e), p: &pathNode{}}
	}
	se := newSearcher(ctx, m, cfg)
	return se.walk(m.Start(e), *w)
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
			cs := w.s.Choices()
			if len(cs) == 0 || w.p.depth >= se.cfg.MaxDepth {
				break
			}
			i := se.rng.IntN(len(cs))
			w.s = se.step(w.s, i)
			w.p = w.p.child(i)
		}
		se.stats.Backtracks++
		w.s, w.p = root, &pathNode{}
	}
}
