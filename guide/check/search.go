package check

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/gmc-go/gmc/guide"
	"github.com/gmc-go/gmc/vm"
	"github.com/gmc-go/gmc/vm/loc"
	"github.com/gmc-go/gmc/vm/trace"
	"github.com/gmc-go/gmc/vm/trace/timeline"
)

// Outcome is what checking one entry gave: the report of the JSON contract
// and what the other outputs (trace file, SARIF, timeline) need.
type Outcome struct {
	Entry  string
	Result *guide.CheckResult
	Report trace.Report
	// the counterexample (nil when none was found), the final state of its
	// replay and that state's error (nil for a reached target)
	Trace *trace.Trace
	Final *vm.State
	Err   *vm.Error
	// steps are the transitions of the replayed counterexample
	Steps []vm.Step
	// replayed reports that the replay of the choices reproduced the error
	Replayed bool
	// timeline of the counterexample, when asked for
	Timeline *timeline.Builder
	// lastLoc is final's last step (kept when slim drops final)
	LastLoc loc.Loc
}

// Slim drops what only the single-entry report reads (the search's
// result, the replay's final state and, through them, machines and
// states), keeping what the outputs (trace files, SARIF, timelines) need: a check of many entries keeps
// every outcome until its outputs are written, and the dropped parts made
// its heap grow by tens of megabytes per entry, slowing the later entries
// down with garbage collection.
func (o *Outcome) Slim() {
	o.Result, o.Final = nil, nil
}

// Search checks l's entry and replays the counterexample it finds (on a
// machine that records synchronizations when cfg.Timeline is set), then
// flips a race it found (cfg.Flip). An error that stops the check is an
// unsupported feature or bad input, or an *InternalError.
func Search(ctx context.Context, l Prepared, cfg Config) (*Outcome, error) {
	start := time.Now()
	gcfg := guide.CheckConfig{
		Bounded: len(cfg.Targets) == 0, // with targets the goal is the guided search's
		Options: l.M.Options(), Entry: l.Entry, Targets: cfg.Targets, Auto: len(cfg.Targets) == 0,
		Strategy: cfg.Strategy, Heuristic: cfg.Heuristic,
		Seed: cfg.Seed, Trials: cfg.Trials, Parallel: cfg.Parallel, AllTrials: cfg.AllTrials, TimeLimit: cfg.TimeLimit,
		MaxDepth: cfg.Depth, MaxBacktrack: cfg.MaxBacktrack, NoRefine: cfg.NoRefine, Progress: cfg.Progress,
		Monitors: cfg.Monitors,
		Eager:    cfg.Eager, RestartRefine: cfg.RestartRefine,
	}
	// a fuzz target's inputs are symbolic (the counterexample records
	// concrete values for them)
	gcfg.Options.Symbolic = l.Entry.Kind == vm.EntryFuzz
	// tests and functions: the fallback's walks in real time and the
	// newest-first walk (the trace records their options; replay sets them
	// again)
	gcfg.FallbackTimers = l.Entry.Kind != vm.EntryMain
	if cfg.Depth >= 10000000 {
		gcfg.MaxDepth = 100000
	}
	res, err := guide.Check(ctx, l.Prog, gcfg)
	if err != nil {
		return nil, err
	}
	o, err := Explain(l, res, cfg)
	if err == nil && flipWanted(cfg, o) {
		if err := flipRace(ctx, cfg, l, o, flipBudget(cfg.TimeLimit, time.Since(start))); err != nil {
			return nil, &InternalError{err}
		}
	}
	return o, err
}

// Explain builds the outcome of a check of l's entry: the report and, when
// the check found a counterexample, its concrete inputs, its replay (which
// must give the same error) and its trace (on a machine that records
// synchronizations for the timeline when cfg.Timeline is set).
func Explain(l Prepared, res *guide.CheckResult, cfg Config) (*Outcome, error) {
	wantTimeline := cfg.Timeline
	o := &Outcome{Entry: l.Entry.Fn.Name(), Result: res, Report: trace.Report{Verdict: res.EntryVerdict(), Stats: aggregate(res, l.Entry), Bound: boundOf(res)}}
	if res.Skipped {
		o.Report.Skip = &trace.SkipInfo{Log: nonNil(res.SkipLog)}
	}
	o.Report.Monitor = monitorReport(cfg, l, res)
	if res.Best == nil {
		return o, nil
	}
	b := res.Best
	e := b.Result.Final.Err()
	if e != nil && (e.Kind == vm.KindUnsupported || e.Kind == vm.KindInternal) {
		if e.Kind == vm.KindInternal {
			return nil, &InternalError{errors.New(e.Msg)}
		}
		return nil, errors.New(e.Msg)
	}
	// symbolic inputs: the counterexample runs concretely with the inputs
	// of a model of its path condition
	opts, choices := b.Machine.Options(), b.Result.Choices
	inputs, concrete, err := trace.Concretize(b.Machine, l.Entry, b.Result.Choices)
	if err != nil {
		return nil, &InternalError{fmt.Errorf("gmc: internal error: counterexample does not replay: %v", err)}
	}
	if inputs != nil {
		opts.Symbolic, opts.Inputs = false, inputs
		choices = concrete
	}
	// replay the counterexample: its steps, the program's output and, when
	// asked for, its timeline
	rm := b.Machine
	if inputs != nil || wantTimeline {
		opts.RecordSync = wantTimeline
		rm = vm.New(l.Prog, opts)
	}
	if wantTimeline {
		kind := "target"
		if e != nil {
			kind = string(e.Kind)
		}
		o.Timeline = timeline.NewBuilder(rm, fmt.Sprintf("gmc check: %s (%s)", o.Entry, kind))
	}
	obs := func(s *vm.State) {
		o.Steps = append(o.Steps, s.LastStep())
		if o.Timeline != nil {
			o.Timeline.Observe(s)
		}
	}
	replayed, steps, err := trace.Replay(rm, l.Entry, choices, obs)
	if err == nil && e != nil && (replayed.Err() == nil || replayed.Err().Msg != e.Msg) {
		err = fmt.Errorf("inputs %v give %v", inputs, replayed.Err())
	}
	if err != nil {
		return nil, &InternalError{fmt.Errorf("gmc: internal error: counterexample does not replay: %v", err)}
	}
	o.Replayed = true
	if replayed.Err() != nil {
		e = replayed.Err()
	}
	tr := &trace.Trace{Pkg: cfg.Pkg, Entry: o.Entry, Args: nonNil(cfg.ProgArgs),
		Seed: b.Seed, Sched: schedName(b.Machine.Options().Sched), Checks: CheckList(l.M.Options()), Choices: choices, Steps: steps, Inputs: inputs, OS: rm.RecordedOS(),
		Timing: b.Machine.Options().Timing(), TimerChoice: b.Machine.Options().TimerChoice, EntryGrace: b.Machine.Options().EntryGrace, StepTime: b.Machine.Options().StepTime}
	if tr.Choices == nil {
		tr.Choices = []int{}
	}
	if tr.Steps == nil {
		tr.Steps = []trace.Step{}
	}
	tr.Breakpoints = trace.BreakpointSpecs(b.Machine)
	tr.Unreachable = trace.UnreachableSpecs(b.Machine)
	tr.RaceAt = trace.RaceAtSpecs(b.Machine)
	tr.ReducedFor = trace.ReducedForSpecs(b.Machine)
	o.Trace, o.Final, o.Err, o.LastLoc = tr, replayed, e, replayed.LastStep().Loc
	o.Report.Trace, o.Report.Timing = tr, tr.Timing
	if e != nil {
		o.Report.Error = trace.ErrorOf(e)
		// the prediction the replayed deadlock shows (lockgraph.go)
		if p := guide.PredictionShown(l.Prog.Fset, b.Predictions, e); p != nil {
			o.Report.Error.PredictedFrom = predictionInfo(l, p)
		}
	} else if b.Result.Goal {
		o.Report.Error = &trace.ErrorInfo{Kind: string(vm.KindAssert), Message: "target reached: " + strings.Join(cfg.TargetSpecs, ", "),
			Pos: b.Machine.Position(replayed.LastStep().Loc)}
	}
	if o.Timeline != nil {
		o.Timeline.Finish(replayed, e)
		o.Timeline.SetInfo("pkg", tr.Pkg)
		o.Timeline.SetInfo("entry", tr.Entry)
	}
	return o, nil
}

// aggregate computes the stats of a check: averages over the successful
// trials (all trials when none succeeded), with min and max when there are
// several trials.
func aggregate(res *guide.CheckResult, e vm.Entry) trace.Stats {
	var pick []guide.TrialResult
	for _, t := range res.Trials {
		if t.Result.Verdict == guide.VerdictError {
			pick = append(pick, t)
		}
	}
	succ := len(pick)
	if succ == 0 {
		pick = res.Trials
	}
	conv := func(t guide.TrialResult) trace.Stats {
		s := t.Result.Stats
		return trace.Stats{States: float64(s.States), Transitions: float64(s.Transitions),
			Instructions: float64(s.Instructions), Backtracks: float64(s.Backtracks),
			Refinements: float64(s.Refinements), Restarts: float64(s.Restarts), TraceLen: float64(traceLen(t, e)),
			SolverCalls: float64(s.SolverCalls), SolverTimeS: s.SolverTime.Seconds(),
			TimeS: s.Time.Seconds(), PeakMemBytes: float64(s.PeakMem)}
	}
	var sum, mn, mx trace.Stats
	for i, t := range pick {
		c := conv(t)
		if i == 0 {
			mn, mx = c, c
		}
		apply(&sum, c, func(a, b float64) float64 { return a + b })
		apply(&mn, c, math.Min)
		apply(&mx, c, math.Max)
	}
	n := float64(max(len(pick), 1))
	avg := sum
	apply(&avg, trace.Stats{}, func(a, _ float64) float64 { return a / n })
	avg.Trials = len(res.Trials)
	avg.SuccessfulTrials = succ
	if len(res.Trials) > 1 {
		avg.Min, avg.Max = &mn, &mx
	}
	return avg
}

// traceLen is the number of transitions of a trial's counterexample as
// the trace records it: without the data choices of a symbolic run.
func traceLen(t guide.TrialResult, e vm.Entry) int {
	if t.Machine != nil && t.Machine.Options().Symbolic && t.Result.Final != nil {
		if _, concrete, err := trace.Concretize(t.Machine, e, t.Result.Choices); err == nil {
			return len(concrete)
		}
	}
	return len(t.Result.Choices)
}

func apply(dst *trace.Stats, src trace.Stats, f func(a, b float64) float64) {
	dst.States = f(dst.States, src.States)
	dst.Transitions = f(dst.Transitions, src.Transitions)
	dst.Instructions = f(dst.Instructions, src.Instructions)
	dst.Backtracks = f(dst.Backtracks, src.Backtracks)
	dst.Refinements = f(dst.Refinements, src.Refinements)
	dst.Restarts = f(dst.Restarts, src.Restarts)
	dst.TraceLen = f(dst.TraceLen, src.TraceLen)
	dst.TimeS = f(dst.TimeS, src.TimeS)
	dst.PeakMemBytes = f(dst.PeakMemBytes, src.PeakMemBytes)
	dst.SolverCalls = f(dst.SolverCalls, src.SolverCalls)
	dst.SolverTimeS = f(dst.SolverTimeS, src.SolverTimeS)
}

// schedName is the --sched name of a scheduling mode (a counterexample of
// the fallback's newest-first walk has sync-only scheduling points whatever
// --sched says).
func schedName(m vm.SchedMode) string {
	if m == vm.SchedSync {
		return "sync"
	}
	return "shared"
}

// boundOf is the extent of a no-error verdict (nil for the others).
func boundOf(res *guide.CheckResult) *trace.Bound {
	if res.Verdict != guide.VerdictNoError {
		return nil
	}
	if res.Exhausted {
		return &trace.Bound{Exhausted: true}
	}
	k := res.Preemptions
	return &trace.Bound{Preemptions: &k}
}
