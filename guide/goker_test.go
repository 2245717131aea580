package guide_test

import (
	"cmp"
	"context"
	"fmt"
	"os"
	"regexp"
	"runtime/debug"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gmc-go/gmc/guide"
	"github.com/gmc-go/gmc/heuristics"
	"github.com/gmc-go/gmc/internal/goker"
	"github.com/gmc-go/gmc/vm"
	"github.com/gmc-go/gmc/vm/load"
	"github.com/gmc-go/gmc/vm/trace"
)

// The GoKer campaign: guided search (guide.Check, the path of gmc check,
// with the fallback's real-time walks on: CheckConfig.FallbackTimers)
// with the leak, deadlock, race and panic checks on every GoKer kernel and
// micro/pattern case shipped with Go, each counterexample replayed on a
// fresh machine and its leaked goroutines matched against the Go project's
// expectations (package internal/goker).
//
// The full campaign runs with GMC_GOKER=all (GMC_GOKER_LIMIT sets the time
// limit of each case, default 20s; GMC_GOKER_RUN, a regexp, selects cases
// by name; GMC_GOKER_TIMERS=0 turns the real-time walks off, as gmc check
// does for main); otherwise a sample of the cases runs (every GMC_GOKER=N-th,
// default 8) so that go test ./... stays short. It is skipped with -short.
// GMC_GOKER_MONITOR sets the runtime monitors (guide.ParseMonitors, e.g.
// lockgraph; default none): each row then logs the predictions, the states
// to the first, and whether the error came with one. GMC_GOKER_PARALLEL=N
// runs each case as gmc check does on N cores: with the bounded search
// (CheckConfig.Bounded), on a core of its own from N=2; default the guided
// search and the walks alone, on one core.

// campaignRow is the outcome of one case. A case whose first error is not
// a leak (a data race, a deadlock) while the Go project expects a leak is
// checked again for leaks only (races off): kind then names both errors
// ("race, leak") and the leak is the one matched; states and time add up.
type campaignRow struct {
	c        goker.Case
	exp      *goker.Expectation
	found    bool
	kind     string
	matched  bool   // the leak satisfies the expectation (goker.Expectation.Satisfied)
	leaks    string // the leaked goroutines, as the upstream test prints them
	states   int
	elapsed  time.Duration
	replayOK bool
	note     string
	timing   string // the time model of the counterexample (vm.Options.Timing)
	// the lock-graph monitor (GMC_GOKER_MONITOR): predictions, the states
	// to the first (-1: none), whether the error came with one
	preds, firstPred int
	predicted        bool
}

func TestGoKerCampaign(t *testing.T) {
	if testing.Short() {
		t.Skip("the GoKer campaign is long")
	}
	cases, err := goker.Cases()
	if err != nil {
		t.Skip(err)
	}
	exps, err := goker.Expectations()
	if err != nil {
		t.Skip(err)
	}
	every, limit := 8, 20*time.Second
	if v := os.Getenv("GMC_GOKER"); v == "all" {
		every = 1
	} else if n, err := strconv.Atoi(v); err == nil && n > 0 {
		every = n
	}
	if d, err := time.ParseDuration(os.Getenv("GMC_GOKER_LIMIT")); err == nil && d > 0 {
		limit = d
	}
	run := regexp.MustCompile(os.Getenv("GMC_GOKER_RUN"))
	// the collector's settings of gmc check (cmd/gmc/gc.go)
	if os.Getenv("GOGC") == "" {
		defer debug.SetGCPercent(debug.SetGCPercent(400))
	}
	if os.Getenv("GOMEMLIMIT") == "" {
		defer debug.SetMemoryLimit(debug.SetMemoryLimit(6 << 30))
	}
	progs := map[string]*load.Program{}
	var rows []campaignRow
	for i, c := range cases {
		if i%every != 0 || !run.MatchString(c.Name) {
			continue
		}
		prog := progs[c.Dir]
		if prog == nil {
			if prog, err = load.Load(load.Config{Dir: c.Dir}); err != nil {
				t.Fatalf("loading %s: %v", c.Dir, err)
			}
			progs[c.Dir] = prog
		}
		exp := exps[c.Name]
		r := runCampaignCase(t, prog, c, exp, vm.Checks{Leak: true, Race: true}, limit)
		if r.found && r.kind != string(vm.KindLeak) && (exp == nil || len(exp.Patterns) > 0) {
			r2 := runCampaignCase(t, prog, c, exp, vm.Checks{Leak: true}, limit)
			r2.states += r.states
			r2.elapsed += r.elapsed
			r2.replayOK = r2.replayOK && r.replayOK
			if r2.found {
				r2.kind = r.kind + ", " + r2.kind
				r2.timing = r.timing + ", " + r2.timing
			} else {
				r2.found, r2.kind, r2.note, r2.timing = true, r.kind, r.note, r.timing
			}
			r = r2
		}
		rows = append(rows, r)
		t.Logf("%-24s found=%v kind=%s matched=%v states=%d time=%.2fs replay=%v timing=%s preds=%d first=%d predicted=%v %s", c.Name, r.found, r.kind, r.matched, r.states, r.elapsed.Seconds(), r.replayOK, r.timing, r.preds, r.firstPred, r.predicted, r.note)
		if r.found && r.timing == vm.TimingAny {
			t.Errorf("%s: found with timers firing at any point, which the default check never does", c.Name)
		}
		if r.found && !r.replayOK {
			t.Errorf("%s: the counterexample does not replay: %s", c.Name, r.note)
		}
		if r.found && strings.HasSuffix(r.kind, string(vm.KindLeak)) && r.exp != nil && !r.matched {
			t.Errorf("%s: leak does not match the expectation: %s", c.Name, r.leaks)
		}
		if c.Name == "NoLeakGlobal" && r.found {
			t.Errorf("NoLeakGlobal: %s reported, want none", r.kind)
		}
	}
	t.Log("\n" + campaignTable(rows, limit))
}

// runCampaignCase checks one case and replays its counterexample.
func runCampaignCase(t *testing.T, prog *load.Program, c goker.Case, exp *goker.Expectation, checks vm.Checks, limit time.Duration) campaignRow {
	r := campaignRow{c: c, exp: exp, firstPred: -1}
	mons, err := guide.ParseMonitors(cmp.Or(os.Getenv("GMC_GOKER_MONITOR"), "none"))
	if err != nil {
		t.Fatal(err)
	}
	base := vm.New(prog, vm.Options{Checks: checks})
	e, err := base.FindEntry(c.Func)
	if err != nil {
		r.note = err.Error()
		return r
	}
	cfg := guide.CheckConfig{
		Options: base.Options(), Entry: e, Auto: true,
		Strategy: guide.Guided, Heuristic: heuristics.SecPFSM,
		Seed: 1, Trials: 1, TimeLimit: limit, MaxDepth: 200000, Fallback: guide.Random, FallbackTimers: os.Getenv("GMC_GOKER_TIMERS") != "0",
		Monitors: mons,
	}
	if n, err := strconv.Atoi(os.Getenv("GMC_GOKER_PARALLEL")); err == nil {
		cfg.Parallel, cfg.Bounded = n, true
	}
	start := time.Now()
	res, err := guide.Check(context.Background(), prog, cfg)
	r.elapsed = time.Since(start)
	if err != nil {
		r.note = err.Error()
		return r
	}
	for _, tr := range res.Trials {
		r.states += tr.Result.Stats.States
	}
	if ps := res.Trials[0].Predictions; len(ps) > 0 {
		r.preds, r.firstPred = len(ps), ps[0].States
	}
	r.predicted = res.Best != nil && res.Best.PredictedFrom != nil
	if res.Best == nil {
		r.note = "verdict " + res.Verdict
		return r
	}
	b := res.Best
	fe := b.Result.Final.Err()
	if fe == nil {
		r.note = "no error in the final state"
		return r
	}
	r.found, r.kind, r.timing = true, string(fe.Kind), b.Machine.Options().Timing()
	var lines []string
	if fe.Kind == vm.KindLeak {
		for _, g := range fe.Goroutines {
			lines = append(lines, goker.LeakLine(g))
		}
		sort.Strings(lines)
		r.leaks = strings.Join(lines, "; ")
		r.matched = exp.Satisfied(lines)
	} else {
		r.note = firstLine(fe.Msg)
	}
	// replay as gmc replay does: a fresh machine with the trace's breakpoints
	bps, err := trace.ResolveBreakpoints(prog, trace.BreakpointSpecs(b.Machine))
	if err != nil {
		r.note = err.Error()
		return r
	}
	o := b.Machine.Options()
	o.Breakpoints = bps
	final, _, err := trace.Replay(vm.New(prog, o), e, b.Result.Choices, nil)
	switch {
	case err != nil:
		r.note = err.Error()
	case final.Err() == nil || final.Err().Kind != fe.Kind || final.Err().Msg != fe.Msg:
		r.note = fmt.Sprintf("replay gives %v", final.Err())
	default:
		r.replayOK = true
	}
	return r
}

// campaignTable formats the rows and the summary.
func campaignTable(rows []campaignRow, limit time.Duration) string {
	var b strings.Builder
	fmt.Fprintf(&b, "| case | expected | found | kind | matched | states | time (s) | replay | time model |\n")
	fmt.Fprintf(&b, "|---|---|---|---|---|---:|---:|---|---|\n")
	var times []float64
	withExp, found, matched, replayed, foundAll, kernels, kernelsFound := 0, 0, 0, 0, 0, 0, 0
	for _, r := range rows {
		expect := "-"
		if r.exp != nil {
			expect = fmt.Sprintf("%d %s", len(r.exp.Patterns), map[bool]string{true: "may", false: "must"}[r.exp.Flaky])
		}
		kind, m, timing := "-", "-", "-"
		if r.found {
			kind, timing = r.kind, r.timing
			foundAll++
			if r.replayOK {
				replayed++
			}
		}
		switch {
		case r.exp != nil && len(r.exp.Patterns) == 0: // no leak expected (NoLeakGlobal)
			expect = "none"
			m = yesNo(!r.found)
		case r.exp != nil:
			withExp++
			if r.found {
				found++
			}
			m = "no"
			if r.matched {
				m = "yes"
				matched++
			}
		}
		if r.c.GoKer {
			kernels++
			if r.found {
				kernelsFound++
			}
		}
		times = append(times, r.elapsed.Seconds())
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %d | %.2f | %s | %s |\n", r.c.Name, expect, yesNo(r.found), kind, m, r.states, r.elapsed.Seconds(), yesNo(r.replayOK), timing)
	}
	slices.Sort(times)
	median := 0.0
	if n := len(times); n > 0 {
		median = times[n/2]
		if n%2 == 0 {
			median = (times[n/2-1] + times[n/2]) / 2
		}
	}
	fmt.Fprintf(&b, "\n%d cases (%d GoKer kernels, %d found); %d with upstream expectations: %d found, %d matched; %d/%d counterexamples replay; median time %.2fs (limit %v per case)\n",
		len(rows), kernels, kernelsFound, withExp, found, matched, replayed, foundAll, median, limit)
	return b.String()
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}
