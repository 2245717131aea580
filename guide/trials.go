package guide

import (
	"context"
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
	start := time.Now()
	t := &Trials{prog: prog, cfg: cfg}
	if cfg.Strategy == Guided {
		var err error
		if t.pl, err = planWithin(prog, cfg); err != nil {
			return nil, err
		}
	}
	t.base = vm.New(prog, cfg.Options)
	t.exM = t.base
	if o, ok := syncOnly(cfg.Options); ok {
		t.exM = vm.New(prog, o)
	}
	t.planTime = time.Since(start)
	return t, nil
}

// planWithin is makePlan within a quarter of the time limit: the trace
// sets built by then (none if the first is not done: the check then runs
// the bounded exhaustive search and the fallback only). With user targets
// (a goal), or outside gmc check's portfolio (CheckConfig.Bounded), it
// waits for the whole plan.
func planWithin(prog *load.Program, cfg CheckConfig) (*plan, error) {
	if cfg.TimeLimit <= 0 || len(cfg.Targets) > 0 || !cfg.Bounded {
		return makePlan(prog, cfg, time.Time{})
	}
	wait := cfg.TimeLimit / 4
	type planned struct {
		pl  *plan
		err error
	}
	ch := make(chan planned, 1)
	go func() {
		pl, err := makePlan(prog, cfg, time.Now().Add(wait))
		ch <- planned{pl, err}
	}()
	timer := time.NewTimer(wait)
	defer timer.Stop()
	select {
	case p := <-ch:
		return p.pl, p.err
	case <-timer.C:
		// the analysis goes on in the background until it ends; its
		// result is dropped
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
	return runTrial(ctx, t.prog, t.base, t.exM, t.pl, tc)
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
	res := &CheckResult{Verdict: VerdictUnknown, Trials: make([]TrialResult, n), TraceSets: t.TraceSets()}
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
	return res
}
