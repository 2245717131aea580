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
// fallback search under the round's bound on states (a
// random walk with a new seed each round on test, fuzz and function
// entries; the unguided randomized greedy search on main). Bounds count
// states, so a trial's outcome does not depend on the load, except where
// states are slow: with a time limit a turn also stops at the time its
// states get (share.go, turnCap), and the walks take turns of their own
// between the others' when they are behind their share of the time
// (walkShare, runTrial's walkUp).
//
// A round of the random walk runs a plain walk with as many states as the
// round's bound times the trace sets (at least one) and, with
// CheckConfig.FallbackTimers, then two more walks with as many each; the
// walks of a round share the time left:
//   - a walk that imitates Go's scheduler and clock (goWalk*): a sticky
//     scheduler with runnext (trace.Sticky), every transition taking
//     goWalkStepTime (vm.Options.StepTime: real time, timers fire when due
//     and never before) and the run ending goWalkGrace transitions after
//     the entry returns, as the process would (vm.Options.EntryGrace). It
//     reaches leaks that need a goroutine to run on for long while timers
//     of different lengths fire in order (GoKer's Istio18454) or a 1ns
//     timer to fire in the middle of a busy loop (GoKer's Grpc3017);
//   - from round newestFromRound, a cooperative newest-first walk
//     (trace.Newest, synchronization operations as the only scheduling
//     points): a goroutine runs until it blocks and then the goroutine
//     started last runs, so a goroutine and those it starts run through
//     before their siblings. Its first run is deterministic and is not
//     cut by the round's bound; it runs first in its rounds. It reaches leaks that exist only once a
//     long loop has ended (GoKer's Kubernetes58107: a 10⁵-iteration
//     Signal loop in one of a thousand controllers).
// Every walk keeps the check's time model otherwise: none lets a timer
// fire before its duration has passed unless the check itself runs with
// timer choices (vm.Options.TimerChoice, gmc's --timing any).
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

// walkMachines returns the machines of the fallback's walks after the
// plain one: base with the Go-like walk's clock and end, base with
// synchronization operations as the only scheduling points (the
// newest-first walk), built once per plan.
func (pl *plan) walkMachines(prog *load.Program, base *vm.Machine) []*vm.Machine {
	pl.mu.Lock()
	defer pl.mu.Unlock()
	if pl.walkMs == nil {
		goLike := base.Options()
		goLike.StepTime, goLike.EntryGrace = goWalkStepTime, goWalkGrace
		newest := base.Options()
		newest.Sched = vm.SchedSync
		pl.walkMs = []*vm.Machine{vm.New(prog, goLike), vm.New(prog, newest)}
	}
	return pl.walkMs
}

// walks are the fallback's random walks of one trial (plain, Go-like,
// newest-first), resumed from round to round: a round's bound on
// states ends the round, not the walk, so a walk that needs more
// transitions than one round's bound (a kernel looping a thousand times
// before its leak) still gets there.
type walks [3]*walkState

// The indexes of the Go-like and newest-first walks in a round (after the
// plain walk).
const (
	goWalk     = 1
	newestWalk = 2
)

// newestEps is the newest-first walk's probability of a uniform choice
// after its first run, which is deterministic.
const newestEps = 0.001

// newestFromRound is the first round (from 0) with the newest-first walk:
// its first run goes through whatever the round's bound, which costs
// seconds on a kernel whose goroutines never stop, so it waits until the
// other walks have had a few rounds.
const newestFromRound = 4

// newestDepth bounds the newest-first walk's runs (at least; the check's
// MaxDepth if larger): running a goroutine through before its siblings
// makes long runs (GoKer's Kubernetes58107 leaks after 5×10⁵ transitions).
const newestDepth = 1000000

// walkState is where a walk stopped: its state and path, and how many
// runs it has ended.
type walkState struct {
	s    *vm.State
	p    *pathNode
	runs int
	// fork is the first state with more than one choice of a run from
	// the initial state, and forkP its path: the transitions before it
	// (the packages' initialization, the entry up to its first choice)
	// are forced, the same in every run, so the runs after the first
	// start there (cockroachdb/apd's initialization: 21 M instructions a
	// run). forced: the run is still in that prefix (nil fork: not
	// reached yet, or the whole run was forced).
	fork   *vm.State
	forkP  *pathNode
	forced bool
	// own: s was made by the walk's last step and nothing else holds it
	// (not the fork, not a run's initial state): the next step may be
	// made in it (stepAmongInPlace)
	own  bool
	work int // the largest hash (vm.State.HashWork) of a state where the walk ended a round
	// steer steers the plain walk's runs toward predicted races
	// (racefuzz.go; nil without the predictive monitor)
	steer *raceSteer
}

// hashWork returns the largest hash of a state where a walk ended a round.
func (ws *walks) hashWork() int {
	n := 0
	for _, w := range ws {
		if w != nil {
			n = max(n, w.work)
		}
	}
	return n
}

// fallbackRound runs a round of the fallback search cfg names (for a
// random walk, both walks in turn) and returns its result and the machine
// of its states. Each walk takes at most turn (0: no cap; share.go,
// turnCap) and goes on from where it stopped next round. After each walk
// it calls between (nil: none), and stops when that reports the check
// over (the bounded search's turns, runTrial).
func (pl *plan) fallbackRound(ctx context.Context, prog *load.Program, base *vm.Machine, e vm.Entry, cfg Config, turn time.Duration, timers bool, round int, ws *walks, between func() bool) (Result, *vm.Machine) {
	if cfg.Strategy != Random {
		return Search(ctx, base, e, cfg), base
	}
	ms := []*vm.Machine{base}
	order := []int{0}
	if timers {
		ms = append(ms, pl.walkMachines(prog, base)...)
		order = append(order, goWalk)
		if round >= newestFromRound {
			// the newest-first walk goes first: its first run is one
			// long deterministic schedule
			order = append([]int{newestWalk}, order...)
		}
	}
	var sum Result
	start, limit := time.Now(), cfg.TimeLimit
	for _, kind := range order {
		m := ms[kind]
		w := &ws[kind]
		if *w == nil {
			*w = &walkState{s: startObserved(m, e, cfg.Locks), p: &pathNode{}, forced: true}
			if kind == 0 {
				(*w).steer = newRaceSteer(m, cfg.Locks)
				(*w).steer.startRun()
			}
		}
		if limit > 0 { // the walks of a round share what is left of the check's time
			cfg.TimeLimit = max(limit-time.Since(start), time.Nanosecond)
			if turn > 0 {
				cfg.TimeLimit = min(cfg.TimeLimit, turn)
			}
		}
		se := newSearcher(ctx, m, cfg)
		r := se.walk(startObserved(m, e, cfg.Locks), *w, kind)
		debugWalk(round, kind, *w, r)
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
		if between != nil && between() {
			break
		}
	}
	return sum, base
}

// walk repeats random executions from root, starting where w stopped and
// leaving w where it stops (stateless), drawing the choices as walk kind
// does.
func (se *searcher) walk(root *vm.State, w *walkState, kind int) Result {
	maxDepth := se.cfg.MaxDepth
	if kind == newestWalk {
		maxDepth = max(maxDepth, newestDepth)
	}
	bound := se.cfg.MaxStates
	for {
		se.cfg.MaxStates = bound
		if kind == newestWalk && w.runs == 0 {
			se.cfg.MaxStates = 0 // its first run goes through (time permitting)
		}
		for {
			if isError(w.s) {
				return se.result(VerdictError, w.s, w.p)
			}
			if se.stop(w.p.depth) {
				if !se.cut { // (a cut state is left as it is)
					w.work = max(w.work, w.s.HashWork())
				}
				return se.result(VerdictUnknown, nil, nil)
			}
			se.gids = w.s.AppendChoiceGoroutines(se.gids[:0])
			n := len(se.gids) // (an entry per choice)
			if w.forced && n > 1 {
				w.fork, w.forkP, w.forced = w.s, w.p, false
			}
			if n == 0 || w.p.depth >= maxDepth {
				break
			}
			var i int
			switch kind {
			case goWalk:
				i = trace.Sticky(w.s, se.gids, goWalkStay, se.rng)
			case newestWalk:
				i = trace.Newest(w.s, se.gids, newestEps*float64(min(w.runs, 1)), se.rng)
			default:
				if w.steer.active() {
					i = w.steer.pick(w.s, se.rng)
				} else {
					i = se.rng.IntN(n)
				}
			}
			if w.own && w.s != w.fork {
				w.s = se.stepAmongInPlace(w.s, i, se.gids)
			} else {
				w.s = se.stepAmong(w.s, i, se.gids)
			}
			w.own = true
			w.p = w.p.child(i)
		}
		se.stats.Backtracks++
		if w.fork != nil {
			w.s, w.p = w.fork, w.forkP
		} else {
			w.s, w.p, w.forced = root, &pathNode{}, true
		}
		w.own = false
		w.runs++
		w.steer.startRun()
	}
}
