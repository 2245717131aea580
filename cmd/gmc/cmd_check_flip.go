package main

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/gmc-go/gmc/guide"
	"github.com/gmc-go/gmc/heuristics"
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
func flipRace(f *checkFlags, l *loaded, o *outcome, budget time.Duration) error {
	fl := &trace.Flip{}
	o.rep.Error.Flip = fl
	if budget <= 0 {
		fl.Cut = "no time left for the flip"
		return nil
	}
	opts := o.res.Best.Machine.Options()
	if o.tr.Inputs != nil {
		opts.Symbolic, opts.Inputs = false, o.tr.Inputs
	}
	opts.RecordSync = false
	res, err := guide.Flip(context.Background(), l.prog, guide.FlipConfig{Options: opts, Entry: l.entry,
		Choices: o.tr.Choices, Race: o.err, Check: o.res, Heuristic: heuristics.Secondary(f.heuristic), Seed: f.seed,
		MaxDepth: f.depth, TimeLimit: budget})
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
	o.rep.Error.Harmful = res.Harmful
	switch {
	case res.Harmful == nil:
		fl.Cut = strings.Join(cuts, "; ")
	case *res.Harmful:
		fo := res.Failure
		m := res.Machine
		_, steps, err := trace.Replay(m, l.entry, fo.Choices, nil)
		if err != nil {
			return fmt.Errorf("gmc: internal error: the race's failing order does not replay: %v", err)
		}
		tr := *o.tr
		tr.Checks = f.checkList(m.Options())
		tr.Choices, tr.Steps = fo.Choices, steps
		tr.RaceAt = nil
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

// flipTraceFile is where the failing trace of a harmful race goes beside
// the race's trace file.
func flipTraceFile(path string) string {
	return strings.TrimSuffix(path, ".json") + ".harmful.json"
}

// writeFlipTrace writes the failing trace of a harmful race beside the
// race's trace file (nothing for other outcomes).
func writeFlipTrace(o *outcome, raceTrace string) error {
	e := o.rep.Error
	if e == nil || e.Flip == nil || e.Flip.Trace == nil || raceTrace == "" {
		return nil
	}
	e.Flip.TraceFile = flipTraceFile(raceTrace)
	return writeTraceFile(e.Flip.TraceFile, e.Flip.Trace, e.Flip.Error)
}

// printFlip says whether a flipped race is harmful.
func printFlip(w io.Writer, e *trace.ErrorInfo) {
	if e == nil || e.Flip == nil {
		return
	}
	fl := e.Flip
	switch {
	case e.Harmful == nil:
		fmt.Fprintf(w, "gmc: race flipped: harmful unknown (%s; %s states)\n", fl.Cut, thousands(fl.States))
	case *e.Harmful:
		replay := "check with --out F.json, then gmc replay F.harmful.json"
		if fl.TraceFile != "" {
			replay = "gmc replay " + shellQuote(fl.TraceFile)
		}
		fmt.Fprintf(w, "gmc: race flipped: harmful: %s at %s with the accesses %s (replay: %s)\n", fl.Error.Kind, fileLine(fl.Error.Pos), fl.Order, replay)
	default:
		fmt.Fprintf(w, "gmc: race flipped: no failure found after the race in either order (%s states; %s)\n", thousands(fl.States), boundText(fl.Bound))
	}
}

// flipWanted reports whether o is a race to flip.
func flipWanted(f *checkFlags, o *outcome) bool {
	return f.flip && o != nil && o.err != nil && o.err.Kind == vm.KindRace && o.tr != nil && o.res != nil && o.res.Best != nil
}

// harmfulNote is a flipped race's verdict in a result line.
func harmfulNote(e *trace.ErrorInfo) string {
	switch {
	case e == nil || e.Flip == nil:
		return ""
	case e.Harmful == nil:
		return "; harmful unknown"
	case *e.Harmful:
		s := fmt.Sprintf("; harmful: %s at %s", e.Flip.Error.Kind, fileLine(e.Flip.Error.Pos))
		if e.Flip.TraceFile != "" {
			s += " (gmc replay " + e.Flip.TraceFile + ")"
		}
		return s
	}
	return "; no failure found after the race in either order"
}

// fileLine drops the column of a file.go:line:col position.
func fileLine(pos string) string {
	if i := strings.LastIndexByte(pos, ':'); i > 0 && strings.Count(pos, ":") >= 2 {
		return pos[:i]
	}
	return pos
}
