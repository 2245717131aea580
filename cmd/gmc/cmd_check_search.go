package main

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/gmc-go/gmc/guide"
	"github.com/gmc-go/gmc/guide/check"
	"github.com/gmc-go/gmc/heuristics"
	"github.com/gmc-go/gmc/vm/loc"
	"github.com/gmc-go/gmc/vm/trace"
)

// search checks l's entry (check.Search) with the flags of f. An error
// that stops the check (an unsupported feature, an internal error) comes
// with its exit code.
func search(f *checkFlags, l *loaded, targets []loc.Loc, progress func(guide.Progress), wantTimeline bool) (*check.Outcome, int, error) {
	o, err := check.Search(context.Background(), l.prepared(), f.config(targets, progress, wantTimeline))
	return o, errCode(err), err
}

// explain builds the outcome of a check of l's entry (check.Explain).
func explain(f *checkFlags, l *loaded, res *guide.CheckResult, wantTimeline bool) (*check.Outcome, int, error) {
	o, err := check.Explain(l.prepared(), res, f.config(nil, nil, wantTimeline))
	return o, errCode(err), err
}

// errCode is the exit code of an error of the check pipeline.
func errCode(err error) int {
	switch {
	case err == nil:
		return exitOK
	case check.IsInternal(err):
		return exitInternal
	}
	return exitUsage
}

// config is the pipeline's configuration of a check with the flags of f.
func (f *checkFlags) config(targets []loc.Loc, progress func(guide.Progress), wantTimeline bool) check.Config {
	return check.Config{Pkg: absPkg(f.pkg), ProgArgs: f.progArgs, Targets: targets, TargetSpecs: f.targets,
		Strategy: guide.Strategy(f.strategy), Heuristic: heuristics.Secondary(f.heuristic),
		Seed: f.seed, Trials: f.trials, Parallel: f.parallel, AllTrials: f.allTrials, TimeLimit: f.timeLimit,
		Depth: f.depth, MaxBacktrack: f.maxBacktrack, NoRefine: f.noRefine, Eager: f.eager, RestartRefine: f.restartRef,
		Monitors: f.monitors, Flip: f.flip, Timeline: wantTimeline, Progress: progress}
}

// prepared is l as the check pipeline takes it.
func (l *loaded) prepared() check.Prepared {
	return check.Prepared{Prog: l.prog, M: l.m, Entry: l.entry}
}

// noErrorText is the summary of a no-error verdict: "no error (exhausted,
// 193 states)" or "no error up to 2 preemptions (41,217 states)".
func noErrorText(b *trace.Bound, states int) string { return verdictBound("no error", b, states) }

// verdictBound is what (a verdict's words) with the extent of its bound b.
func verdictBound(what string, b *trace.Bound, states int) string {
	switch {
	case b == nil || b.Exhausted || b.Preemptions == nil:
		return fmt.Sprintf("%s (exhausted, %s states)", what, thousands(states))
	case *b.Preemptions == 1:
		return fmt.Sprintf("%s up to 1 preemption (%s states)", what, thousands(states))
	}
	return fmt.Sprintf("%s up to %d preemptions (%s states)", what, *b.Preemptions, thousands(states))
}

// skipText is the summary of a skip verdict: "skipped (exhausted, 1
// states)", "skipped up to 2 preemptions (…)" or, when the search that
// saw only skips had no bound, "skipped in every execution explored (…,
// not exhausted)"; then the time and the skip message, go test's log
// line ("; skip_test.go:5: not on this machine").
func skipText(rep *trace.Report, timeS float64) string {
	states := int(rep.Stats.States)
	s := verdictBound("skipped", rep.Bound, states)
	if rep.Bound == nil {
		s = fmt.Sprintf("skipped in every execution explored (%s states, not exhausted)", thousands(states))
	}
	s += fmt.Sprintf(", %.2fs", timeS)
	if rep.Skip != nil && len(rep.Skip.Log) > 0 {
		s += "; " + firstLine(rep.Skip.Log[len(rep.Skip.Log)-1])
	}
	return s
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
