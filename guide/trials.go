package guide

import (
	"context"
	"fmt"
	"os"
	"sync"
	"time"

	"github.com/gmc-go/gmc/vm"
	"github.com/gmc-go/gmc/vm/load"
)

// Trials is a check prepared once and run as independent trials: the
// abstract trace sets of a guided check and the VM machines are computed
// by Prepare and shared, read-only or behind their own locks, by every
// trial. Trial i searches with seed cfg.Seed+i, so its outcome does not
// depend on which other trials run, in what order, or how many at once
// (only its time and memory do). Campaigns (package guide/campaign) run
// trials of many checks through Run; Check runs one check's trials.
type Trials struct {
	prog *load.Program
	base *vm.Machine
	exM  *vm.Machine // the machine of the exhaustive searches (exhaustiveMachine)
	pl   *plan
	cfg  CheckConfig
	// planTime is the time Prepare took; with CheckConfig.Bounded each
	// trial's time limit covers it.
	planTime time.Duration
	// early is trial 0's bounded exhaustive search, run while the plan
	// was built (taken by the first Run of trial 0).
	earlyMu sync.Mutex
	early   *early
}

// early is the bounded exhaustive search of gmc check's portfolio run by
// Prepare while the plan is built in the background (planWithin): a small
// space gets its verdict without waiting for the plan, and a large one
// has a head start. Trial 0 goes on with it (resumable.go).
type early struct {
	se    *searcher
	br    *boundRun
	root  *vm.State
	res   *Result // the verdict it reached: an error, or no error (exhausted)
	start time.Time
	mon   *LockGraph // the lock-graph monitor of its runs (CheckConfig.Monitors), which the trial goes on with
}

// earlyBudget is the states of each round of the early search, half for
// the full sleep-set search (a small space is exhausted by it sooner than
// by the bounded search) and half for the bounded search: between rounds
// it checks whether the plan is ready.
const earlyBudget = 128

// runEarly runs the early search of t's trial 0 in rounds until ready
// (the plan is built, or the wait for it is over) or the search reaches a
// verdict (then it reports true: the plan is not needed).
func (t *Trials) runEarly(start time.Time, ready func() bool) bool {
	cfg := t.cfg
	mon := NewMonitor(cfg.Monitors)
	e := &early{se: newSearcher(context.Background(), t.exM, Config{MaxDepth: cfg.MaxDepth, TimeLimit: cfg.TimeLimit, Locks: mon.observer()}), br: newBoundRun(), mon: mon}
	e.se.start, e.start = start, start
	e.root = startObserved(t.exM, cfg.Entry, e.mon.observer())
	t.early = e
	if debugOn {
		fmt.Fprintf(os.Stderr, "gmc: early search starts after %v\n", time.Since(start))
		defer func() {
			fmt.Fprintf(os.Stderr, "gmc: early search ends after %v, %d states\n", time.Since(start), e.se.stats.States)
		}()
	}
	e.se.interrupt = mon
	// each round within the time its states get (turnCap): the plan may
	// be ready long before 128 slow states are
	defer e.se.capTurn(0)
	for !ready() {
		e.se.capTurn(turnCap(earlyBudget, 0, cfg.TimeLimit))
		if mon != nil && mon.pending.Load() {
			// the lock-graph monitor predicted a deadlock: the trial
			// searches toward it first, with the plan's distances
			return false
		}
		r, found := e.br.roundSplit(e.se, e.root, earlyBudget/2, earlyBudget/2)
		if found {
			e.res = &r
			return true
		}
		if e.br.exhausted {
			r, _ := e.br.verdict(e.se)
			e.res = &r
			return true
		}
		if e.se.outOfBudget() || (e.br.fullDone && e.br.stuck) {
			return false
		}
	}
	return false
}

// takeEarly returns the early search for trial i (only trial 0 has one,
// and only its first run).
func (t *Trials) takeEarly(i int) *early {
	if i != 0 {
		return nil
	}
	t.earlyMu.Lock()
	defer t.earlyMu.Unlock()
	e := t.early
	t.early = nil
	return e
}

// Prepare computes what the trials of a check share: the plan of a guided
// check (abstract trace sets, distance tables) and the base machine.
func Prepare(prog *load.Program, cfg CheckConfig) (*Trials, error) {
	if cfg.Trials <= 0 {
		cfg.Trials = 1
	}
	if cfg.Parallel <= 0 {
		cfg.Parallel = 1
	}
	if cfg.StatesPerTraceSet <= 0 {
		cfg.StatesPerTraceSet = 1000
	}
	if cfg.Options.Ends == nil {
		// every machine of the check counts its executions' ends in one
		// tally (CheckResult.Skipped)
		cfg.Options.Ends = &vm.Ends{}
	}
	start := time.Now()
	t := &Trials{prog: prog, cfg: cfg}
	t.base = vm.New(prog, cfg.Options)
	t.exM = t.base
	if o, ok := syncOnly(cfg.Options); ok {
		t.exM = vm.New(prog, o)
	}
	if cfg.Strategy == Guided {
		var idle func(ready func() bool) bool
		if cfg.Bounded && cfg.TimeLimit > 0 && len(cfg.Targets) == 0 {
			idle = func(ready func() bool) bool { return t.runEarly(start, ready) }
		}
		var err error
		if t.pl, err = planWithin(prog, cfg, idle); err != nil {
			return nil, err
		}
	}
	t.planTime = time.Since(start)
	return t, nil
}

// planWithin is makePlan within a quarter of the time limit: the trace
// sets built by then (none if the first is not done: the check then runs
// the bounded exhaustive search and the fallback only). With user targets
// (a goal), or outside gmc check's portfolio (CheckConfig.Bounded), it
// waits for the whole plan. Meanwhile it runs idle (when not nil), which
// returns when ready says the plan is built or the wait is over, or
// earlier with true when the plan is no longer needed.
func planWithin(prog *load.Program, cfg CheckConfig, idle func(ready func() bool) bool) (*plan, error) {
	if cfg.TimeLimit <= 0 || len(cfg.Targets) > 0 || !cfg.Bounded {
		return makePlan(context.Background(), prog, cfg)
	}
	wait := cfg.TimeLimit / 4
	// a plan dropped is stopped: left to run, the analyses of a package's
	// entries piled up behind its check (maypok86/otter/v2: each ran 10–36 s
	// after its entry's 3 s, holding their slices' caches)
	ctx, cancel := context.WithTimeout(context.Background(), wait)
	defer cancel()
	type planned struct {
		pl  *plan
		err error
	}
	ch := make(chan planned, 1)
	go func() {
		t0 := time.Now()
		pl, err := makePlan(ctx, prog, cfg)
		debugPlan(pl, time.Since(t0), wait)
		ch <- planned{pl, err}
	}()
	deadline := time.Now().Add(wait)
	if idle != nil {
		var got *planned
		ready := func() bool {
			select {
			case p := <-ch:
				got = &p
				return true
			default:
			}
			return !time.Now().Before(deadline)
		}
		if idle(ready) {
			return &plan{cache: map[int]*vm.Machine{}}, nil // (the analysis stops: cancel)
		}
		if got != nil {
			return got.pl, got.err
		}
	}
	// (what is left of the wait: idle may have used it up)
	timer := time.NewTimer(time.Until(deadline))
	defer timer.Stop()
	select {
	case p := <-ch:
		return p.pl, p.err
	case <-timer.C:
		// the analysis stops (cancel) and its result is dropped
		return &plan{cache: map[int]*vm.Machine{}}, nil
	}
}

// TraceSets is the number of abstract trace sets a guided check follows
// (0 for the other strategies).
func (t *Trials) TraceSets() int {
	if t.pl == nil {
		return 0
	}
	return len(t.pl.sets)
}

// Run runs trial i (seed cfg.Seed+i). It is safe to call concurrently.
// Only trial 0 reports progress.
func (t *Trials) Run(ctx context.Context, i int) TrialResult {
	tc := t.cfg
	tc.Seed = t.cfg.Seed + uint64(i)
	if i > 0 {
		tc.Progress = nil
	}
	if tc.TimeLimit > 0 && tc.Bounded {
		tc.TimeLimit = max(tc.TimeLimit-t.planTime, time.Millisecond)
	}
	// a core to spare for each trial: the bounded search runs on it
	tc.BoundedCore = tc.Bounded && t.cfg.Parallel >= 2*t.cfg.Trials
	pre := t.takeEarly(i)
	var mon *LockGraph
	switch {
	case pre != nil && pre.mon != nil:
		mon = pre.mon
	case tc.Monitors.Any():
		mon = NewMonitor(tc.Monitors)
	}
	return runTrial(ctx, t.prog, t.base, t.exM, t.pl, tc, pre, mon)
}

// runAll runs trials 0..cfg.Trials-1 on cfg.Parallel workers that take
// trials in index order.
//
// Unless cfg.AllTrials is set, the first counterexample wins: when trial i
// finds an error, the trials with a higher index are cancelled (or never
// started) and dropped from the result, while the trials with a lower
// index run to completion, since one of them may still find an error and
// then win instead. The result therefore holds trials 0..b, where b is the
// lowest index of a trial that finds an error, and Best is trial b: the
// same counterexample, and the same trials, whatever cfg.Parallel is and
// however the trials interleave (given the same time limits).
func (t *Trials) runAll(ctx context.Context) *CheckResult {
	n := t.cfg.Trials
	res := &CheckResult{Verdict: VerdictUnknown, Trials: make([]TrialResult, n), TraceSets: t.TraceSets(), plan: t.pl}
	var (
		mu      sync.Mutex
		next    int
		first   = n // lowest index of a trial that found an error
		cancels = map[int]context.CancelFunc{}
		wg      sync.WaitGroup
	)
	for w := 0; w < min(t.cfg.Parallel, n); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				mu.Lock()
				i := next
				if i >= n || (!t.cfg.AllTrials && i > first) {
					mu.Unlock()
					return
				}
				next++
				tctx, cancel := context.WithCancel(ctx)
				cancels[i] = cancel
				mu.Unlock()

				r := t.Run(tctx, i)

				mu.Lock()
				delete(cancels, i)
				cancel()
				res.Trials[i] = r
				if !t.cfg.AllTrials && r.Result.Verdict == VerdictError && i < first {
					first = i
					for j, c := range cancels {
						if j > i {
							c()
						}
					}
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if !t.cfg.AllTrials && first < n {
		res.Trials = res.Trials[:first+1]
	}
	// every trial's no-error claim holds: the verdict is the widest
	noErr := false
	for i := range res.Trials {
		tr := &res.Trials[i]
		switch tr.Result.Verdict {
		case VerdictError:
			if res.Best == nil {
				res.Best = tr
			}
		case VerdictNoError:
			res.Exhausted = res.Exhausted || tr.Result.Exhausted
			res.Preemptions = max(res.Preemptions, tr.Result.Preemptions)
			noErr = true
		}
	}
	switch {
	case res.Best != nil:
		res.Verdict = VerdictError
		res.Exhausted, res.Preemptions = false, 0
	case noErr:
		res.Verdict = VerdictNoError
	}
	if res.Best == nil {
		res.SkipLog, res.Skipped = t.cfg.Options.Ends.AllSkipped()
	}
	return res
}
