package guide

import (
	"context"
	"math/rand/v2"
	"time"

	"github.com/gmc-go/gmc/heuristics"
	"github.com/gmc-go/gmc/vm"
	"github.com/gmc-go/gmc/vm/load"
	"github.com/gmc-go/gmc/vm/loc"
)

// CheckConfig configures a check of one entry: where to look (targets),
// how (strategy, heuristic), and how long.
type CheckConfig struct {
	Options vm.Options // VM options (scheduling, checks, program arguments)
	Entry   vm.Entry
	Targets []loc.Loc // user targets: reaching all of them at once is a goal
	// Guides are target groups that guide the search without being goals
	// (gmc confirm: a warning's locations; the search stops at errors).
	// They replace the groups Auto would compute.
	Guides    [][]loc.Loc
	Auto      bool // without user targets, guide toward panic sites and analyzer warnings (with none, toward blocking operations when leaks are checked)
	Strategy  Strategy
	Heuristic heuristics.Secondary
	Seed      uint64
	Trials    int
	Parallel  int
	// AllTrials runs every trial to completion (to measure the error
	// density); otherwise the first counterexample cancels later trials.
	AllTrials bool
	TimeLimit time.Duration
	MaxDepth  int
	// MaxBacktrack bounds the guided backtrack set.
	MaxBacktrack int
	// StatesPerTraceSet is the first round's bound on the guided search
	// along one trace set before the next one is tried (0: 1,000); the
	// bound doubles every round (see runTrial), and the searches restarted
	// after refinements of a set share its bound.
	StatesPerTraceSet int
	// NoRefine disables refinement (Fig. 2.6): a stall at a branch of the
	// trace does not stop the guided search.
	NoRefine bool
	// RestartRefine makes the guided search start again from the initial
	// state after every refinement (the seed's Fig. 2.4 line 15) instead
	// of going on where it stalled (setRun.resume).
	RestartRefine bool
	// Eager runs every successor of a state before the guided search
	// ranks them (the seed's; Config.Eager).
	Eager bool
	// MaxRefinements bounds the refinements of one trace set (0: 100).
	MaxRefinements int
	Progress       func(Progress)
	// Fallback is the strategy a guided trial alternates with (see
	// fallback.go): "" for a random walk on test, fuzz and function
	// entries and none on main, "none" for none.
	Fallback Strategy
	// FallbackTimers adds two walks to each fallback round (fallback.go):
	// one imitating Go's scheduler and clock (vm.Options.StepTime,
	// EntryGrace) and, in later rounds, a newest-first one with sync-only
	// scheduling points (SchedSync). Their counterexamples replay only on a machine with
	// those options (TrialResult.Machine has them): a trace file must
	// record them for gmc replay.
	FallbackTimers bool
	// Bounded makes the guided check a portfolio (bounded.go): every round
	// starts with a round of the bounded exhaustive search, whose completed
	// preemption bound (or exhausted space) is the no-error verdict's.
	// gmc check sets it; campaigns measuring the guided search alone do not.
	Bounded bool
	// BoundedShare is the share of the time the bounded search may take
	// (0: a third); gmc confirm, whose dismissals are the bounded
	// search's, gives it more.
	BoundedShare float64
	// BoundedCore runs the bounded search on a core of its own, beside
	// the guided search and the walks, for the whole time limit
	// (boundedcore.go); Trials.Run sets it when Parallel leaves a core to
	// spare for each trial.
	BoundedCore bool
	// Monitors are the runtime monitors run on every execution
	// (lockgraph.go).
	Monitors Monitors
}

// TrialResult is the outcome of one trial.
type TrialResult struct {
	Seed    uint64
	Result  Result
	Machine *vm.Machine // the machine Final and Choices belong to
	// Predictions are the lock-order cycles the lock-graph monitor
	// predicted during the trial (Monitors.LockGraph); none is an error.
	Predictions []*Prediction
	// PredictedFrom is the prediction the error of Result shows (a
	// deadlock whose goroutines wait at the cycle's acquisitions), nil
	// when none does.
	PredictedFrom *Prediction
	// walkTime is the time the fallback's random walks took (runTrial:
	// their share, walkShare)
	walkTime time.Duration
}

// CheckResult is the outcome of all trials of a check.
type CheckResult struct {
	Verdict string
	Best    *TrialResult // the counterexample of the lowest-index successful trial
	Trials  []TrialResult
	// TraceSets is the number of abstract trace sets the guided search had.
	TraceSets int
	// A no-error verdict holds for the whole state space (Exhausted) or
	// for every schedule with at most Preemptions preemptions.
	Exhausted   bool
	Preemptions int
	// Skipped: no trial found an error and, among the executions of
	// every search of the check whose entry ended (vm.Ends), at least
	// one did and every one skipped its test (go test's SKIP: nothing
	// past the t.Skip ran). Verdict stays the searches' (no-error within
	// its bound, or unknown); EntryVerdict reports VerdictSkip. SkipLog
	// is the test's log in the first execution that skipped (the
	// t.Skip message last).
	Skipped bool
	SkipLog []string
	// plan holds the trace sets the check had (nil when the bounded
	// search ended it before they were built): Flip guides with them.
	plan *plan
}

// EntryVerdict is the verdict on the entry: VerdictSkip when the test
// skipped in every execution explored (Skipped), else Verdict.
func (r *CheckResult) EntryVerdict() string {
	if r.Skipped {
		return VerdictSkip
	}
	return r.Verdict
}

// Check searches for an error in cfg.Entry of prog with cfg.Trials trials,
// cfg.Parallel at a time. Unless cfg.AllTrials is set, the first
// counterexample wins and cancels the trials after it; the rule that keeps
// the result independent of cfg.Parallel is on Trials.runAll.
func Check(ctx context.Context, prog *load.Program, cfg CheckConfig) (*CheckResult, error) {
	t, err := Prepare(prog, cfg)
	if err != nil {
		return nil, err
	}
	return t.runAll(ctx), nil
}

// runTrial runs one trial: rounds over the trace sets of a guided check,
// then an unguided greedy search, each with a bound on the states of the
// round that doubles every round, until the time limit (iterative
// deepening over the sets: an infeasible trace set costs at most as much
// as the feasible ones, and none is given up for good).
//
// Along a trace set the search stops at the first stall (Config.StopOnStall)
// unless cfg.NoRefine is set: the set is refined at the stalled branch
// (package refine, with a generator seeded by the trial's seed) and the
// search goes on where it stalled with the refined set (setRun.resume), or
// starts again from the initial state when it cannot (Fig. 2.4 line 15;
// counted in Stats.Restarts), up to cfg.MaxRefinements times; the refined
// set is the one the next round follows. A branch that cannot be refined
// (no other goroutine defines what it reads) no longer stops the search of
// that set. A set whose search ends inside its bound without a stall is
// exhausted.
func runTrial(ctx context.Context, prog *load.Program, base, exM *vm.Machine, pl *plan, cfg CheckConfig, pre *early, mon *LockGraph) TrialResult {
	start := time.Now()
	sc := Config{Strategy: cfg.Strategy, Seed: cfg.Seed, MaxDepth: cfg.MaxDepth,
		MaxBacktrack: cfg.MaxBacktrack, TimeLimit: cfg.TimeLimit, Progress: cfg.Progress, Locks: mon.observer(), Eager: cfg.Eager}
	if pl == nil {
		m := base
		if cfg.Strategy == Exhaustive || cfg.Strategy == DPOR {
			m = exM // sync-only scheduling points when races are errors (syncpoints.go)
		}
		r := Search(ctx, m, cfg.Entry, sc)
		return mon.annotate(prog, TrialResult{Seed: cfg.Seed, Result: r, Machine: m})
	}
	maxRef := cfg.MaxRefinements
	if maxRef <= 0 {
		maxRef = 100
	}
	rng := rand.New(rand.NewPCG(cfg.Seed, 0x2545f4914f6cdd1d))
	var total Stats
	var walkTime time.Duration // the time the fallback's walks took
	add := func(r Result) {
		total.States += r.Stats.States
		total.Transitions += r.Stats.Transitions
		total.Instructions += r.Stats.Instructions
		total.Backtracks += r.Stats.Backtracks
		total.SolverCalls += r.Stats.SolverCalls
		total.SolverTime += r.Stats.SolverTime
		total.MaxDepth = max(total.MaxDepth, r.Stats.MaxDepth)
		total.BestLevel = max(total.BestLevel, r.Stats.BestLevel)
		total.PeakMem = max(total.PeakMem, r.Stats.PeakMem)
	}
	searchStart := start // (the early search began before the trial)
	if pre != nil {
		searchStart = pre.start
	}
	var bc *boundedCore // the bounded search on a core of its own (nil: interleaved)
	var coreRes *Result
	coreJoined := false
	// joinCore stops the bounded search on its own core (or, with wait,
	// waits for it to end) once, and returns its verdict if it reached
	// one that ends the trial
	joinCore := func(wait bool) *Result {
		if bc == nil || coreJoined {
			return coreRes
		}
		coreJoined = true
		if wait {
			coreRes = bc.wait()
		} else {
			coreRes = bc.stop()
		}
		if coreRes == nil || coreRes.Verdict != VerdictError {
			add(Result{Stats: bc.stats}) // (an error's result carries them)
		}
		return coreRes
	}
	finish := func(r Result, m *vm.Machine) TrialResult {
		if cr := joinCore(false); cr != nil && r.Verdict != VerdictError {
			r, m = *cr, base // (the other side's error wins: it was found first)
			if r.Verdict == VerdictError {
				m = exM // (its runs' machine: sync-only scheduling points)
			}
		}
		add(r)
		r.Stats = total
		r.Stats.Time = time.Since(searchStart)
		return mon.annotate(prog, TrialResult{Seed: cfg.Seed, Result: r, Machine: m, walkTime: walkTime})
	}
	remaining := func() time.Duration {
		if cfg.TimeLimit <= 0 {
			return 0
		}
		return max(cfg.TimeLimit-time.Since(start), time.Nanosecond)
	}
	outOfTime := func() bool {
		return ctx.Err() != nil || (cfg.TimeLimit > 0 && time.Since(start) >= cfg.TimeLimit)
	}
	runs := make([]*setRun, len(pl.sets))
	for i := range pl.sets {
		runs[i] = &setRun{idx: i, round: -1, ts: &pl.sets[i], stopOnStall: !cfg.NoRefine, unrefinable: map[loc.Loc]bool{}}
	}
	// the trace sets toward the lock-order cycles the monitor predicts
	// (lockgraph.go): searched first in every round, and as soon as a
	// search predicts them
	var pruns []*setRun
	poll := func() []*setRun {
		if mon == nil {
			return nil
		}
		var added []*setRun
		for _, p := range mon.Take() {
			for _, ts := range pl.predictedSets(prog, cfg.Entry, p) {
				added = append(added, &setRun{idx: -1, round: -1, ts: &ts, stopOnStall: !cfg.NoRefine, unrefinable: map[loc.Loc]bool{}})
			}
		}
		pruns = append(pruns, added...)
		return added
	}
	fallbackDone := cfg.Fallback == "none"
	// the bounded exhaustive search (bounded.go) shares every round
	ex := newSearcher(ctx, exM, Config{MaxDepth: cfg.MaxDepth, TimeLimit: cfg.TimeLimit, Locks: mon.observer()})
	ex.start = start
	ex.interrupt = mon
	var exRoot *vm.State
	var exTime time.Duration // the time the bounded exhaustive search took
	br := newBoundRun()
	if pre != nil {
		// go on with the search Prepare ran while it built the plan
		ex, exRoot, br = pre.se, pre.root, pre.br
		ex.ctx, ex.start, ex.cfg.TimeLimit = ctx, start, cfg.TimeLimit
		ex.interrupt = mon
		if r := pre.res; r != nil {
			br.close() // (the other search may be paused)
			res := *r
			res.Stats = ex.stats
			m := base
			if res.Verdict == VerdictError {
				res.Stats.SolverCalls, res.Stats.SolverTime = exRoot.SolverStats()
				m = exM
			}
			return finish(res, m)
		}
		add(Result{Stats: ex.stats})
		poll()
	}
	defer br.close()
	exDone := func() bool { return !cfg.Bounded || bc != nil || br.exhausted || (br.fullDone && br.stuck) }
	if cfg.BoundedCore && !exDone() {
		if exRoot == nil {
			exRoot = startObserved(exM, cfg.Entry, mon.observer())
		}
		parent := ctx
		var stopMain context.CancelFunc
		ctx, stopMain = context.WithCancel(parent) // (the guided search's and the walks')
		defer stopMain()
		bc = startBoundedCore(parent, ex, exRoot, br, stopMain)
		defer bc.stop() // (before br.close: every return joins it first)
	}
	unknown := func(m *vm.Machine) TrialResult {
		// (out of time, or stopped: the core's search stops too; else
		// the other side has nothing left and waits for it)
		if cr := joinCore(!outOfTime()); cr != nil {
			if cr.Verdict == VerdictError {
				m = exM
			}
			return finish(*cr, m)
		}
		if r, ok := br.verdict(ex); ok {
			r.Stats = Stats{}
			return finish(r, m)
		}
		return finish(Result{Verdict: VerdictUnknown}, m)
	}
	var fws walks // the fallback's random walks, resumed from round to round
	// shareNow is the bounded search's share of the time (a third, or
	// idleBoundedShare once nothing is left to chase or half the time
	// has gone: sliced, its rounds then take the states of their share)
	shareNow := func() (share float64, sliced bool) {
		if cfg.BoundedShare > 0 {
			return cfg.BoundedShare, false
		}
		if nothingToChase(runs, pruns) || lateShare(cfg.TimeLimit, time.Since(start)) {
			return idleBoundedShare, true
		}
		return 1.0 / 3, false
	}
	exStates := 0 // the states of exTurn's rounds (exTime's)
	// exTurn runs a round of the bounded exhaustive search of about
	// states states, for at most turn (0: no cap); over: it ended the trial
	// (an error, or the space exhausted)
	exTurn := func(round, states int, turn time.Duration) (TrialResult, bool) {
		exStart := time.Now()
		if exRoot == nil {
			exRoot = startObserved(exM, cfg.Entry, mon.observer())
		}
		before := ex.stats
		ex.capTurn(turn)
		r, found := br.round(ex, exRoot, states)
		ex.capTurn(0)
		d := statsSince(ex.stats, before)
		if found {
			r.Stats = d
			r.Stats.SolverCalls, r.Stats.SolverTime = exRoot.SolverStats()
			return finish(r, exM), true
		}
		add(Result{Stats: d})
		poll()
		exTime += time.Since(exStart)
		exStates += d.States
		debugBounded(round, br, d.States, exTime, time.Since(start), turn)
		if br.exhausted {
			r, _ := br.verdict(ex)
			r.Stats = Stats{}
			return finish(r, base), true
		}
		return TrialResult{}, false
	}
	// catchUp gives the bounded search a turn between the guided
	// search's trace sets and walks when it is behind its share of the
	// time by a slice (turnSlice): a round of the guided search may run
	// for seconds, and the share is kept by time, not by rounds
	pacedAt := start // the end of the other side's last pause (corePause)
	catchUp := func(round int) (TrialResult, bool) {
		if bc != nil && !coreJoined {
			if d := corePause(cfg.TimeLimit, time.Since(start), time.Since(pacedAt)); d > 0 {
				select { // (until the bounded search ends, or the trial does)
				case <-time.After(min(d, remaining())):
				case <-bc.done:
				case <-ctx.Done():
				}
			}
			pacedAt = time.Now()
		}
		if !cfg.Bounded || exDone() || outOfTime() {
			return TrialResult{}, false
		}
		share, _ := shareNow()
		n := turnSlice(share, time.Since(start), exTime, exStates, cfg.TimeLimit)
		if n == 0 {
			return TrialResult{}, false
		}
		// (n is counted at the rate so far; a turn whose states are
		// slower than that stops once it has made up its share)
		return exTurn(round, n, max(turnCap(n, round, cfg.TimeLimit), behind(share, time.Since(start), exTime)))
	}
	walkTurns := 0 // walkUp's turns
	// walkUp gives the fallback's random walks a turn between the trace
	// sets and the bounded search's turns when they are more than minTurn
	// behind walkShare of the time (share.go): where states are slow a
	// round's other turns take seconds each (a fresh machine's first
	// state too) and the walks, at the round's end, would get none
	walkUp := func(round int) (TrialResult, bool) {
		if fallbackDone || fallbackOf(cfg) != Random || cfg.TimeLimit <= 0 || outOfTime() {
			return TrialResult{}, false
		}
		b := behind(walkShare, time.Since(start), walkTime)
		if b < minTurn(cfg.TimeLimit) {
			return TrialResult{}, false
		}
		walkTurns++
		c := sc
		c.Strategy = Random
		c.TimeLimit = remaining()
		c.MaxStates = 0 // (bounded by time only)
		c.Seed = cfg.Seed + uint64(round)*0x9e3779b9 + uint64(walkTurns)*0xbf58476d1ce4e5b9
		t := time.Now()
		// (the plain walk only: the others run on machines of their
		// own, whose first states, the program's initialization, cost
		// a check of slow states seconds each)
		r, fm := pl.fallbackRound(ctx, prog, base, cfg.Entry, c, b, false, round, &fws, nil)
		walkTime += time.Since(t)
		if r.Verdict == VerdictError {
			return finish(r, fm), true
		}
		add(r)
		poll()
		return TrialResult{}, false
	}
	// runQueue searches the trace sets of queue in turn, each within
	// setBudget states (refining it when it stalls); the sets toward
	// predictions made meanwhile are searched right after the set that
	// made them. The sets of the round share the time turnCap gives
	// their states: a set whose states are slow stops at its part and
	// goes on where it stopped in the next round. It reports a result
	// when the trial is over.
	runQueue := func(queue []*setRun, round, setBudget int) (TrialResult, bool) {
		partLeft := turnCap(setBudget*max(1, toRun(queue, round)), round, cfg.TimeLimit)
		for qi := 0; qi < len(queue); qi++ {
			sr := queue[qi]
			if sr.round == round {
				continue
			}
			sr.round = round
			left := setBudget
			var setTime, spent time.Duration // the set's part of the time (0: no cap), the time its runs took
			if partLeft > 0 {
				// (at least minSetTime: a set late in the queue still
				// goes on a little every round)
				setTime = max(partLeft/time.Duration(toRun(queue[qi:], round)+1), minSetTime)
			}
			for !sr.exhausted && left > 0 {
				if sr.g == nil {
					sr.start(ctx, prog, pl, cfg, sc)
				}
				n := left
				if sr.probe > 0 {
					n = min(n, sr.probe)
				}
				lim := remaining()
				if setTime > 0 {
					if spent >= setTime {
						break // (the search goes on from there next round)
					}
					lim = min(lim, setTime-spent)
				}
				runStart := time.Now()
				r := sr.run(n, lim)
				took := time.Since(runStart)
				spent += took
				debugRound(prog, sr.idx, sr.refined, sr.ts, r)
				if r.Verdict == VerdictError {
					return finish(r, sr.m), true
				}
				add(r)
				left -= r.Stats.States
				if added := poll(); len(added) > 0 {
					// search the predictions next
					queue = append(queue[:qi+1], append(added, queue[qi+1:]...)...)
				}
				if outOfTime() {
					return unknown(sr.m), true
				}
				if tr, over := walkUp(round); over {
					return tr, true
				}
				if tr, over := catchUp(round); over {
					return tr, true
				}
				if setTime > 0 && r.Stall == nil && r.Stats.States < n && took >= lim {
					break // its part of the time is over: it goes on from there next round
				}
				if r.Stall == nil && sr.probe > 0 && left > 0 {
					// the resumed search neither stalled again nor
					// found the error within its probe: start again
					sr.g, sr.probe = nil, 0
					total.Restarts++
					continue
				}
				if r.Stall == nil {
					// the bound of the round (the next round starts
					// again with twice as many), or the end of the space
					sr.exhausted = left > 0
					sr.g = nil
					break
				}
				if sr.refined >= maxRef {
					sr.stopOnStall = false
					sr.g.goOn()
					continue
				}
				nts, _, err := pl.ref.Refine(*sr.ts, r.Stall.Trace, r.Stall.Step, rng)
				if err != nil {
					sr.unrefinable[r.Stall.Branch] = true
					sr.g.goOn()
					continue
				}
				old := sr.ts
				sr.ts = &nts
				sr.refined++
				total.Refinements++
				// progress: the states of the run up to the stall
				// are given back to the set's round, up to an eighth
				// of its bound each (a set whose refinements go on
				// is not cut off by the bound meant to share the
				// round between sets)
				left += min(r.Stats.States, setBudget/8)
				if !cfg.RestartRefine && sr.resume(cfg, pl, old, r.Stall.Trace) {
					continue
				}
				sr.g = nil // start again from the initial state (Fig. 2.4 line 15)
				total.Restarts++
			}
			if partLeft > 0 {
				partLeft = max(partLeft-spent, time.Nanosecond)
			}
		}
		return TrialResult{}, false
	}
	for round, budget := 0, cfg.StatesPerTraceSet; ; round, budget = round+1, budget*2 {
		setBudget := budget
		if !pl.goal {
			if round > autoSetRounds {
				setBudget = cfg.StatesPerTraceSet << autoSetRounds
			}
			// a guided state costs a state hash (its visited set), which
			// grows with the program: charge it by the largest hash of
			// the states where the walks ended their rounds
			setBudget /= max(1, fws.hashWork()/hashWorkPerState)
		}
		// the sets toward the monitor's predictions first
		if tr, over := runQueue(append([]*setRun(nil), pruns...), round, setBudget); over {
			return tr
		}
		// the bounded exhaustive search next: a small space gets its
		// verdict at once
		// (at most a third of the time so far, BoundedShare: its states cost more
		// than the guided search's on some programs, and the other two
		// find bugs the bounded search reaches late)
		share, sliced := shareNow()
		if cfg.Bounded && !exDone() && !outOfTime() && (round == 0 || exTime <= time.Duration(float64(time.Since(start))*share)) {
			states := budget * max(1, len(runs))
			d := turnCap(states, round, cfg.TimeLimit)
			if sliced {
				states = max(states, boundedSlice(share, time.Since(start), exTime, exStates))
				d = max(turnCap(states, round, cfg.TimeLimit), behind(share, time.Since(start), exTime))
			}
			if tr, over := exTurn(round, states, d); over {
				return tr
			}
		}
		if tr, over := walkUp(round); over {
			return tr
		}
		// the predictions the bounded search made, then the plan's sets
		if tr, over := runQueue(append(append([]*setRun(nil), pruns...), runs...), round, setBudget); over {
			return tr
		}
		// the fallback search (fallback.go), with the same bound
		if !fallbackDone {
			c := sc
			c.TimeLimit = remaining()
			c.MaxStates = budget
			r, fm := Result{}, base
			fbStart, capped := time.Now(), false
			if fb := fallbackOf(cfg); fb != "" {
				c.Strategy = fb
				c.Seed = cfg.Seed + uint64(round)*0x9e3779b9
				c.MaxStates = budget * max(1, len(runs)) // as many states as the trace sets together
				var turn *TrialResult                    // the bounded search's turn that ended the check
				var turns time.Duration                  // the time of the bounded search's turns between walks
				r, fm = pl.fallbackRound(ctx, prog, base, cfg.Entry, c, turnCap(c.MaxStates, round, cfg.TimeLimit), cfg.FallbackTimers, round, &fws, func() bool {
					t := time.Now()
					tr, over := catchUp(round)
					turns += time.Since(t)
					if over {
						turn = &tr
					}
					return over
				})
				walkTime += time.Since(fbStart) - turns
				if turn != nil {
					return *turn
				}
			} else {
				if d := turnCap(c.MaxStates, round, cfg.TimeLimit); d > 0 && d < c.TimeLimit {
					c.TimeLimit, capped = d, true
				}
				r = Search(ctx, base, cfg.Entry, c)
				capped = capped && time.Since(fbStart) >= c.TimeLimit
			}
			if r.Verdict == VerdictError || r.Verdict == VerdictNoError {
				return finish(r, fm)
			}
			add(r)
			poll()
			fallbackDone = c.Strategy != Random && r.Stats.States < c.MaxStates && !capped
		}
		if tr, over := catchUp(round); over {
			return tr
		}
		if outOfTime() {
			return unknown(base)
		}
		if exDone() && fallbackDone && allExhausted(runs, func(sr *setRun) bool { return sr.exhausted }) &&
			allExhausted(pruns, func(sr *setRun) bool { return sr.exhausted }) {
			return unknown(base)
		}
	}
}

// autoSetRounds is the last round whose bound on states doubles for the
// trace sets of a check without a user goal (the sets toward analyzer
// warnings, panic sites or blocking operations, cfg.Auto); later rounds
// keep that bound while the fallback's keeps doubling. A guided state
// costs a state hash (the visited set) that grows with the program's
// goroutines, ten to twenty times a walk's transition on GoKer's kernels
// with hundreds of goroutines, and every kernel the sets find they find
// within the first rounds; the leaks found later are the walks'.
const autoSetRounds = 2

// hashWorkPerState is the size of a state's hash (vm.State.HashWork: the
// objects, goroutines and race-detector clocks it reads) that a guided
// state of a check without a user goal may have for the price of one
// state (see autoSetRounds); with a larger hash, its sets get
// proportionally fewer states. GoKer's small kernels hash a few hundred;
// Istio18454 (a hundred channels of 1,024 buffered events, a clock per
// slot) about 10⁵, Kubernetes58107 (thousands of goroutines) about 10⁴.
const hashWorkPerState = 2048
