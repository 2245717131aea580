package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"strings"
	"time"

	"github.com/gmc-go/gmc/abstract"
	"github.com/gmc-go/gmc/guide"
	"github.com/gmc-go/gmc/heuristics"
	"github.com/gmc-go/gmc/vm"
	"github.com/gmc-go/gmc/vm/loc"
	"github.com/gmc-go/gmc/vm/trace"
)

func init() { commands["check"] = runCheck }

// multiFlag collects a repeatable string flag.
type multiFlag []string

func (m *multiFlag) String() string     { return strings.Join(*m, ",") }
func (m *multiFlag) Set(v string) error { *m = append(*m, v); return nil }

// checkFlags are the flags of gmc check.
type checkFlags struct {
	runFlags
	targets      multiFlag
	strategy     string
	heuristic    string
	trials       int
	parallel     int
	allTrials    bool
	timeLimit    time.Duration
	maxBacktrack int
	noRefine     bool
}

func (f *checkFlags) register(fs *flag.FlagSet) {
	f.runFlags.register(fs)
	fs.Var(&f.targets, "target", "target location file.go:LINE to reach (repeatable; all at once)")
	fs.StringVar(&f.strategy, "strategy", "guided", "search strategy: guided, dfs, rdfs, random, bfs or exhaustive")
	fs.StringVar(&f.heuristic, "heuristic", "pfsm", "secondary heuristic of the guided search: pfsm, fsm, random or prefer-threads")
	fs.IntVar(&f.trials, "trials", 1, "independent trials (seeds seed, seed+1, ...)")
	fs.IntVar(&f.parallel, "parallel", 1, "trials run at once")
	fs.BoolVar(&f.allTrials, "all-trials", false, "run every trial to completion (error density) instead of stopping at the first counterexample")
	fs.DurationVar(&f.timeLimit, "time-limit", 60*time.Second, "time limit of each trial")
	fs.IntVar(&f.maxBacktrack, "max-backtrack", 100000, "capacity of the guided search's backtrack set")
	fs.BoolVar(&f.noRefine, "no-refine", false, "do not refine the abstract traces when the guided search stalls at a branch")
}

// runCheck implements `gmc check`: search for an error or a target.
func runCheck(args []string) int {
	fs := flag.NewFlagSet("check", flag.ContinueOnError)
	var f checkFlags
	f.register(fs)
	fs.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: gmc check [flags] PKG [-- ARGS]")
		fs.PrintDefaults()
	}
	pos, progArgs, err := parseInterleaved(fs, args)
	if err != nil {
		return exitUsage
	}
	if len(pos) != 1 {
		return usageErr("check takes one package (got %d); see 'gmc check -h'", len(pos))
	}
	f.pkg, f.progArgs = pos[0], progArgs
	if !validStrategy(f.strategy) {
		return usageErr("unknown --strategy %q (want guided, dfs, rdfs, random, bfs or exhaustive)", f.strategy)
	}
	switch heuristics.Secondary(f.heuristic) {
	case heuristics.SecPFSM, heuristics.SecFSM, heuristics.SecRandom, heuristics.SecPreferThreads:
	default:
		return usageErr("unknown --heuristic %q (want pfsm, fsm, random or prefer-threads)", f.heuristic)
	}
	l, code := loadAndPrepare("", f.pkg, &f.runFlags)
	if l == nil {
		return code
	}
	var targets []loc.Loc
	for _, spec := range f.targets {
		t, err := abstract.ParseTarget(l.prog, spec)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return exitUsage
		}
		targets = append(targets, t)
	}
	if len(targets) == 0 {
		sites, err := abstract.CommentTargets(l.prog)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return exitUsage
		}
		for _, s := range sites {
			targets = append(targets, s.Loc)
		}
	}
	cfg := guide.CheckConfig{
		Options: l.m.Options(), Entry: l.entry, Targets: targets, Auto: len(targets) == 0,
		Strategy: guide.Strategy(f.strategy), Heuristic: heuristics.Secondary(f.heuristic),
		Seed: f.seed, Trials: f.trials, Parallel: f.parallel, AllTrials: f.allTrials, TimeLimit: f.timeLimit,
		MaxDepth: f.depth, MaxBacktrack: f.maxBacktrack, NoRefine: f.noRefine,
	}
	// a fuzz target's inputs are symbolic (the counterexample records
	// concrete values for them)
	cfg.Options.Symbolic = l.entry.Kind == vm.EntryFuzz
	if f.depth >= 10000000 {
		cfg.MaxDepth = 100000
	}
	prog := newProgressLine(os.Stderr, !f.json)
	cfg.Progress = prog.update
	start := time.Now()
	res, err := guide.Check(context.Background(), l.prog, cfg)
	prog.clear()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return exitUsage
	}
	return reportCheck(&f, l, res, start)
}

func validStrategy(s string) bool {
	for _, x := range guide.Strategies {
		if string(x) == s {
			return true
		}
	}
	return false
}

// reportCheck prints the outcome of a check and returns the exit code.
func reportCheck(f *checkFlags, l *loaded, res *guide.CheckResult, start time.Time) int {
	rep := trace.Report{Verdict: res.Verdict, Stats: aggregate(res, l.entry)}
	stdout := io.Writer(os.Stdout)
	progOut := stdout
	if f.json {
		progOut = os.Stderr
	}
	if res.Best != nil {
		b := res.Best
		final := b.Result.Final
		e := final.Err()
		if e != nil && (e.Kind == vm.KindUnsupported || e.Kind == vm.KindInternal) {
			fmt.Fprintln(os.Stderr, e.Msg)
			if e.Kind == vm.KindInternal {
				return exitInternal
			}
			return exitUsage
		}
		// symbolic inputs: the counterexample runs concretely with the
		// inputs of a model of its path condition
		rm, choices := b.Machine, b.Result.Choices
		inputs, concrete, err := trace.Concretize(b.Machine, l.entry, b.Result.Choices)
		if err != nil {
			fmt.Fprintf(os.Stderr, "gmc: internal error: counterexample does not replay: %v\n", err)
			return exitInternal
		}
		if inputs != nil {
			o := b.Machine.Options()
			o.Symbolic, o.Inputs = false, inputs
			rm, choices = vm.New(l.prog, o), concrete
		}
		// replay the counterexample: its steps and the program's output
		st := &streamer{stdout: progOut, stderr: os.Stderr}
		replayed, steps, err := trace.Replay(rm, l.entry, choices, nil)
		if err == nil && e != nil && (replayed.Err() == nil || replayed.Err().Msg != e.Msg) {
			err = fmt.Errorf("inputs %v give %v", inputs, replayed.Err())
		}
		if err != nil {
			fmt.Fprintf(os.Stderr, "gmc: internal error: counterexample does not replay: %v\n", err)
			return exitInternal
		}
		if replayed.Err() != nil {
			e = replayed.Err()
		}
		tr := &trace.Trace{Pkg: absPkg(f.pkg), Entry: l.entry.Fn.Name(), Args: nonNil(f.progArgs),
			Seed: b.Seed, Sched: f.sched, Checks: f.checkList(l.m.Options()), Choices: choices, Steps: steps, Inputs: inputs}
		if tr.Choices == nil {
			tr.Choices = []int{}
		}
		if tr.Steps == nil {
			tr.Steps = []trace.Step{}
		}
		tr.Breakpoints = trace.BreakpointSpecs(b.Machine)
		rep.Trace = tr
		if e != nil {
			rep.Error = trace.ErrorOf(e)
		} else if b.Result.Goal {
			rep.Error = &trace.ErrorInfo{Kind: string(vm.KindAssert), Message: "target reached: " + strings.Join(f.targets, ", "),
				Pos: b.Machine.Position(replayed.LastStep().Loc)}
		}
		if !f.json {
			fmt.Fprintf(os.Stderr, "gmc: %s found after %d states in %.2fs (trial seed %d); counterexample of %d transitions\n",
				rep.Error.Kind, b.Result.Stats.States, b.Result.Stats.Time.Seconds(), b.Seed, len(steps))
			printSteps(os.Stderr, steps)
			st.flush(replayed)
			if e != nil {
				printCrash(os.Stderr, e)
			} else {
				fmt.Fprintln(os.Stderr, rep.Error.Message)
			}
		}
		if f.out != "" {
			if err := writeTraceFile(f.out, tr, rep.Error); err != nil {
				fmt.Fprintf(os.Stderr, "gmc: %v\n", err)
				return exitInternal
			}
			if !f.json {
				fmt.Fprintf(os.Stderr, "gmc: trace written to %s (replay: gmc replay %s)\n", f.out, f.out)
			}
		}
	} else if !f.json {
		switch res.Verdict {
		case guide.VerdictNoError:
			fmt.Fprintf(os.Stderr, "gmc: no error: the state space was exhausted (%d states, %.2fs)\n", int(rep.Stats.States), time.Since(start).Seconds())
		default:
			fmt.Fprintf(os.Stderr, "gmc: no error found within the bounds (%d states, %.2fs); verdict unknown\n", int(rep.Stats.States), time.Since(start).Seconds())
		}
	}
	if f.json {
		writeJSON(stdout, rep)
	}
	if res.Best != nil {
		return exitFound
	}
	return exitOK
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
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
			Refinements: float64(s.Refinements), TraceLen: float64(traceLen(t, e)),
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
	dst.TraceLen = f(dst.TraceLen, src.TraceLen)
	dst.TimeS = f(dst.TimeS, src.TimeS)
	dst.PeakMemBytes = f(dst.PeakMemBytes, src.PeakMemBytes)
	dst.SolverCalls = f(dst.SolverCalls, src.SolverCalls)
	dst.SolverTimeS = f(dst.SolverTimeS, src.SolverTimeS)
}

// progressLine shows search progress on one terminal line.
type progressLine struct {
	w       io.Writer
	enabled bool
	shown   bool
}

func newProgressLine(w *os.File, want bool) *progressLine {
	fi, err := w.Stat()
	tty := err == nil && fi.Mode()&os.ModeCharDevice != 0
	return &progressLine{w: w, enabled: want && tty}
}

func (p *progressLine) update(pr guide.Progress) {
	if !p.enabled {
		return
	}
	p.shown = true
	fmt.Fprintf(p.w, "\r\033[Kgmc: %d states, depth %d, %.0f states/s, best level %d, %.0fs",
		pr.States, pr.Depth, pr.Rate, pr.BestLevel, pr.Elapsed.Seconds())
}

func (p *progressLine) clear() {
	if p.shown {
		fmt.Fprint(p.w, "\r\033[K")
	}
}
