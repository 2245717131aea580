package main

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/gmc-go/gmc/guide"
	"github.com/gmc-go/gmc/heuristics"
	"github.com/gmc-go/gmc/vm"
	"github.com/gmc-go/gmc/vm/loc"
	"github.com/gmc-go/gmc/vm/trace"
	"github.com/gmc-go/gmc/vm/trace/timeline"
)

// outcome is what checking one entry gave: the report of the JSON contract
// and what the other outputs (trace file, SARIF, timeline) need.
type outcome struct {
	entry string
	res   *guide.CheckResult
	rep   trace.Report
	// the counterexample (nil when none was found), the final state of its
	// replay and that state's error (nil for a reached target)
	tr    *trace.Trace
	final *vm.State
	err   *vm.Error
	// steps are the transitions of the replayed counterexample
	steps []vm.Step
	// replayed reports that the replay of the choices reproduced the error
	replayed bool
	// timeline of the counterexample, when asked for
	timeline *timeline.Builder
	// lastLoc is final's last step (kept when slim drops final)
	lastLoc loc.Loc
}

// slim drops what only the single-entry report reads (the search's
// result, the replay's final state and, through them, machines and
// states), keeping what writeOutputs needs: a check of many entries keeps
// every outcome until its outputs are written, and the dropped parts made
// its heap grow by tens of megabytes per entry, slowing the later entries
// down with garbage collection.
func (o *outcome) slim() {
	o.res, o.final = nil, nil
}

// search checks l's entry and replays the counterexample it finds (on a
// machine that records synchronizations when a timeline is wanted). An
// error that stops the check (an unsupported feature, an internal error)
// comes with its exit code.
func search(f *checkFlags, l *loaded, targets []loc.Loc, progress func(guide.Progress), wantTimeline bool) (*outcome, int, error) {
	start := time.Now()
	cfg := guide.CheckConfig{
		Bounded: len(targets) == 0, // with targets the goal is the guided search's
		Options: l.m.Options(), Entry: l.entry, Targets: targets, Auto: len(targets) == 0,
		Strategy: guide.Strategy(f.strategy), Heuristic: heuristics.Secondary(f.heuristic),
		Seed: f.seed, Trials: f.trials, Parallel: f.parallel, AllTrials: f.allTrials, TimeLimit: f.timeLimit,
		MaxDepth: f.depth, MaxBacktrack: f.maxBacktrack, NoRefine: f.noRefine, Progress: progress,
		Monitors: f.monitors,
		Eager:    f.eager, RestartRefine: f.restartRef,
	}
	// a fuzz target's inputs are symbolic (the counterexample records
	// concrete values for them)
	cfg.Options.Symbolic = l.entry.Kind == vm.EntryFuzz
	// tests and functions: the fallback's walks in real time and the
	// newest-first walk (the trace records their options; replay sets them
	// again)
	cfg.FallbackTimers = l.entry.Kind != vm.EntryMain
	if f.depth >= 10000000 {
		cfg.MaxDepth = 100000
	}
	res, err := guide.Check(context.Background(), l.prog, cfg)
	if err != nil {
		return nil, exitUsage, err
	}
	o, code, err := explain(f, l, res, wantTimeline)
	if err == nil && flipWanted(f, o) {
		if err := flipRace(f, l, o, flipBudget(f.timeLimit, time.Since(start))); err != nil {
			return nil, exitInternal, err
		}
	}
	return o, code, err
}

// explain builds the outcome of a check of l's entry: the report and, when
// the check found a counterexample, its concrete inputs, its replay (which
// must give the same error) and its trace.
func explain(f *checkFlags, l *loaded, res *guide.CheckResult, wantTimeline bool) (*outcome, int, error) {
	o := &outcome{entry: l.entry.Fn.Name(), res: res, rep: trace.Report{Verdict: res.Verdict, Stats: aggregate(res, l.entry), Bound: boundOf(res)}}
	o.rep.Monitor = monitorReport(f, l, res)
	if res.Best == nil {
		return o, exitOK, nil
	}
	b := res.Best
	e := b.Result.Final.Err()
	if e != nil && (e.Kind == vm.KindUnsupported || e.Kind == vm.KindInternal) {
		if e.Kind == vm.KindInternal {
			return nil, exitInternal, errors.New(e.Msg)
		}
		return nil, exitUsage, errors.New(e.Msg)
	}
	// symbolic inputs: the counterexample runs concretely with the inputs
	// of a model of its path condition
	opts, choices := b.Machine.Options(), b.Result.Choices
	inputs, concrete, err := trace.Concretize(b.Machine, l.entry, b.Result.Choices)
	if err != nil {
		return nil, exitInternal, fmt.Errorf("gmc: internal error: counterexample does not replay: %v", err)
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
		rm = vm.New(l.prog, opts)
	}
	if wantTimeline {
		kind := "target"
		if e != nil {
			kind = string(e.Kind)
		}
		o.timeline = timeline.NewBuilder(rm, fmt.Sprintf("gmc check: %s (%s)", o.entry, kind))
	}
	obs := func(s *vm.State) {
		o.steps = append(o.steps, s.LastStep())
		if o.timeline != nil {
			o.timeline.Observe(s)
		}
	}
	replayed, steps, err := trace.Replay(rm, l.entry, choices, obs)
	if err == nil && e != nil && (replayed.Err() == nil || replayed.Err().Msg != e.Msg) {
		err = fmt.Errorf("inputs %v give %v", inputs, replayed.Err())
	}
	if err != nil {
		return nil, exitInternal, fmt.Errorf("gmc: internal error: counterexample does not replay: %v", err)
	}
	o.replayed = true
	if replayed.Err() != nil {
		e = replayed.Err()
	}
	tr := &trace.Trace{Pkg: absPkg(f.pkg), Entry: o.entry, Args: nonNil(f.progArgs),
		Seed: b.Seed, Sched: schedName(b.Machine.Options().Sched), Checks: f.checkList(l.m.Options()), Choices: choices, Steps: steps, Inputs: inputs, OS: rm.RecordedOS(),
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
	o.tr, o.final, o.err, o.lastLoc = tr, replayed, e, replayed.LastStep().Loc
	o.rep.Trace, o.rep.Timing = tr, tr.Timing
	if e != nil {
		o.rep.Error = trace.ErrorOf(e)
		// the prediction the replayed deadlock shows (lockgraph.go)
		if p := guide.PredictionShown(l.prog.Fset, b.Predictions, e); p != nil {
			o.rep.Error.PredictedFrom = predictionInfo(l, p)
		}
	} else if b.Result.Goal {
		o.rep.Error = &trace.ErrorInfo{Kind: string(vm.KindAssert), Message: "target reached: " + strings.Join(f.targets, ", "),
			Pos: b.Machine.Position(replayed.LastStep().Loc)}
	}
	if o.timeline != nil {
		o.timeline.Finish(replayed, e)
		o.timeline.SetInfo("pkg", tr.Pkg)
		o.timeline.SetInfo("entry", tr.Entry)
	}
	return o, exitOK, nil
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

// noErrorText is the summary of a no-error verdict: "no error (exhausted,
// 193 states)" or "no error up to 2 preemptions (41,217 states)".
func noErrorText(b *trace.Bound, states int) string {
	switch {
	case b == nil || b.Exhausted || b.Preemptions == nil:
		return fmt.Sprintf("no error (exhausted, %s states)", thousands(states))
	case *b.Preemptions == 1:
		return fmt.Sprintf("no error up to 1 preemption (%s states)", thousands(states))
	}
	return fmt.Sprintf("no error up to %d preemptions (%s states)", *b.Preemptions, thousands(states))
}

// thousands formats n with commas between groups of three digits.
func thousands(n int) string {
	s := strconv.Itoa(n)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}
