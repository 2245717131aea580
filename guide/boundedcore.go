package guide

import (
	"context"
	"time"

	"github.com/gmc-go/gmc/vm"
)

// This file holds the portfolio's bounded exhaustive search on a core of
// its own (CheckConfig.BoundedCore, gmc check --parallel with a core to
// spare). Interleaved (runTrial's exTurn), the bounded search gets a third
// of one core's time, three quarters once the guided search has nothing
// to chase or half the time has gone; a passing test whose bound 0 is
// long then ends "unknown" (x/sync's errgroup TestGoLimit: 1,025 workers,
// bound 0 about 390,000 states). On a core of its own it runs the whole
// time limit, from the trial's start, while the guided search and the
// walks share the trial's core as they would with nothing else to run.
//
// The two sides share nothing but the machines (which concurrent trials
// share too), the lock-graph monitor (locked) and the trial's
// cancellation: whichever reaches a verdict that ends the trial — an
// error, or the space exhausted — stops the other. The outcome then
// depends on the timing of the two cores, as a run of trials in parallel
// does; the counterexample replays either way.

// boundedCore is a bounded exhaustive search running on a goroutine of
// its own.
type boundedCore struct {
	cancel context.CancelFunc
	done   chan struct{}
	// set by the search's goroutine before done is closed
	res   *Result // its verdict when it ended the trial: an error, or no error (exhausted)
	stats Stats   // the states it took
}

// coreBudget is the first round's states of a bounded search on a core
// of its own (rounds double, up to coreMaxBudget): the rounds only pace
// its checks and debug output, the search goes on where it paused.
const (
	coreBudget    = 4000
	coreMaxBudget = 1 << 18
)

// startBoundedCore starts the bounded search se (with its run br) from
// root on a goroutine of its own; stopOthers is called when it reaches a
// verdict that ends the trial. The search no longer pauses for the
// monitor's predictions (searcher.interrupt): the other side polls them.
func startBoundedCore(ctx context.Context, se *searcher, root *vm.State, br *boundRun, stopOthers func()) *boundedCore {
	cctx, cancel := context.WithCancel(ctx)
	se.ctx = cctx
	se.interrupt = nil
	se.capTurn(0)
	bc := &boundedCore{cancel: cancel, done: make(chan struct{})}
	before := se.stats
	go func() {
		defer close(bc.done)
		defer func() { bc.stats = statsSince(se.stats, before) }()
		for round, budget := 0, coreBudget; ; round, budget = round+1, min(2*budget, coreMaxBudget) {
			if se.outOfBudget() {
				return
			}
			t := time.Now()
			r, found := br.round(se, root, budget)
			debugBounded(round, br, budget, time.Since(t), time.Since(se.start), 0)
			if found {
				r.Stats = statsSince(se.stats, before)
				r.Stats.SolverCalls, r.Stats.SolverTime = root.SolverStats()
				bc.res = &r
				stopOthers()
				return
			}
			if br.exhausted {
				r, _ := br.verdict(se)
				r.Stats = Stats{}
				bc.res = &r
				stopOthers()
				return
			}
			if br.fullDone && br.stuck {
				return // nothing more it can claim
			}
		}
	}()
	return bc
}

// stop stops the search (if it still runs) and waits for its goroutine;
// it reports the verdict that ends the trial, if the search reached one.
func (bc *boundedCore) stop() *Result {
	bc.cancel()
	<-bc.done
	return bc.res
}

// wait waits for the search to end by itself (or by the time limit).
func (bc *boundedCore) wait() *Result {
	<-bc.done
	bc.cancel()
	return bc.res
}

// statsSince is the part of now a search took since before.
func statsSince(now, before Stats) Stats {
	d := now
	d.States -= before.States
	d.Transitions -= before.Transitions
	d.Instructions -= before.Instructions
	d.Backtracks -= before.Backtracks
	return d
}
