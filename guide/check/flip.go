package check

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/gmc-go/gmc/guide"
	"github.com/gmc-go/gmc/vm"
	"github.com/gmc-go/gmc/vm/trace"
)

// flipShare is the share of --time-limit a race's flip may take (at most
// what the check left of it).
const flipShare = 4

// flipBudget is the time the flip of a race found after elapsed may take:
// a quarter of the time limit, at most what is left of it.
func flipBudget(limit, elapsed time.Duration) time.Duration {
	if limit <= 0 {
		limit = 60 * time.Second
	}
	return min(limit/flipShare, limit-elapsed)
}

// flipRace flips the race of o (guide.Flip) within budget and records the
// outcome in its report: error.harmful and error.flip, with the failing
// counterexample of a harmful race (replayed on a machine without race
// detection).
func flipRace(ctx context.Context, cfg Config, l Prepared, o *Outcome, budget time.Duration) error {
	fl := &trace.Flip{}
	o.Report.Error.Flip = fl
	if budget <= 0 {
		fl.Cut = "no time left for the flip"
		return nil
	}
	opts := o.Result.Best.Machine.Options()
	if o.Trace.Inputs != nil {
		opts.Symbolic, opts.Inputs = false, o.Trace.Inputs
	}
	opts.RecordSync = false
	res, err := guide.Flip(ctx, l.Prog, guide.FlipConfig{Options: opts, Entry: l.Entry,
		Choices: o.Trace.Choices, Race: o.Err, Check: o.Result, Heuristic: cfg.Heuristic, Seed: cfg.Seed,
		MaxDepth: cfg.Depth, TimeLimit: budget})
	if err != nil {
		fl.Cut = err.Error()
		return nil
	}
	fl.States = res.States
	var cuts []string
	for _, fo := range res.Orders {
		r := trace.FlipOrder{Order: fo.Order, Verdict: fo.Verdict, States: fo.States, Skipped: fo.Skipped}
		if fo.Verdict == guide.VerdictNoError {
			r.Bound = bound(fo.Exhausted, fo.Preemptions)
		}
		switch {
		case fo.Skipped != "":
			cuts = append(cuts, fo.Order+": "+fo.Skipped)
		case fo.Verdict == guide.VerdictUnknown:
			cuts = append(cuts, fo.Order+": the search was cut by the time budget")
		}
		fl.Orders = append(fl.Orders, r)
	}
	o.Report.Error.Harmful = res.Harmful
	switch {
	case res.Harmful == nil:
		fl.Cut = strings.Join(cuts, "; ")
	case *res.Harmful:
		fo := res.Failure
		m := fo.Machine
		_, steps, err := trace.Replay(m, l.Entry, fo.Choices, nil)
		if err != nil {
			return fmt.Errorf("gmc: internal error: the race's failing order does not replay: %v", err)
		}
		tr := *o.Trace
		tr.Checks = CheckList(m.Options())
		tr.Choices, tr.Steps = fo.Choices, steps
		tr.RaceAt = nil
		tr.TimerChoiceDepth = m.Options().TimerChoiceDepth
		tr.Sched, tr.Breakpoints = schedName(m.Options().Sched), trace.BreakpointSpecs(m)
		fl.Order, fl.Error, fl.Trace = fo.Order, trace.ErrorOf(fo.Final.Err()), &tr
	default:
		fl.Bound = bound(res.Exhausted, res.Preemptions)
	}
	return nil
}

// bound is the trace form of a no-error verdict's bound.
func bound(exhausted bool, preemptions int) *trace.Bound {
	if exhausted {
		return &trace.Bound{Exhausted: true}
	}
	k := preemptions
	return &trace.Bound{Preemptions: &k}
}

// flipWanted reports whether o is a race to flip.
func flipWanted(cfg Config, o *Outcome) bool {
	return cfg.Flip && o != nil && o.Err != nil && o.Err.Kind == vm.KindRace && o.Trace != nil && o.Result != nil && o.Result.Best != nil
}
