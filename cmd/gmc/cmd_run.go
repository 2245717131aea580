package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
	"strings"
	"time"

	"github.com/gmc-go/gmc/vm"
	"github.com/gmc-go/gmc/vm/trace"
)

func init() { commands["run"] = runRun }

// runRun implements `gmc run`: one execution under a seeded random scheduler.
func runRun(args []string) int {
	fs := flag.NewFlagSet("run", flag.ContinueOnError)
	var f runFlags
	var w walkFlags
	f.register(fs)
	w.register(fs, &f)
	fs.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: gmc run [flags] PKG [-- ARGS]")
		fs.PrintDefaults()
	}
	pos, progArgs, err := parseInterleaved(fs, args)
	if err != nil {
		return exitUsage
	}
	if len(pos) != 1 {
		return usageErr("run takes one package (got %d); see 'gmc run -h'", len(pos))
	}
	f.pkg, f.progArgs = pos[0], progArgs
	if w.stay < 0 || w.stay >= 1 || f.stepTime < 0 || f.grace < 0 {
		return usageErr("--stay must be in [0,1), --step-time and --grace >= 0")
	}
	start := time.Now()
	l, code := loadAndPrepare("", f.pkg, &f)
	if l == nil {
		return code
	}
	st := &streamer{stdout: os.Stdout, stderr: os.Stderr}
	if f.json {
		st.stdout = os.Stderr
	}
	cfg := trace.WalkConfig{Seed: f.seed, MaxDepth: f.depth, Stay: w.stay}
	final, choices, steps := trace.Walk(l.m, l.entry, cfg, st.flush)
	st.flush(final)
	return finishRun(&f, l, final, choices, steps, start, os.Stdout, os.Stderr)
}

// finishRun reports the outcome of one execution (run and replay).
func finishRun(f *runFlags, l *loaded, final *vm.State, choices []int, steps []trace.Step, start time.Time, stdout, stderr io.Writer) int {
	e := final.Err()
	if e != nil && e.Kind == vm.KindUnsupported {
		fmt.Fprintln(stderr, e.Msg)
		return exitUsage
	}
	if e != nil && e.Kind == vm.KindInternal {
		fmt.Fprintln(stderr, e.Msg)
		return exitInternal
	}
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	tr := &trace.Trace{
		Pkg: absPkg(f.pkg), Entry: l.entry.Fn.Name(), Args: f.progArgs, Seed: f.seed,
		Sched: f.sched, Checks: f.checkList(l.m.Options()), Choices: choices, Steps: steps, OS: l.m.RecordedOS(),
		Timing: l.m.Options().Timing(), TimerChoice: l.m.Options().TimerChoice, EntryGrace: f.grace, StepTime: int64(f.stepTime),
	}
	if tr.Args == nil {
		tr.Args = []string{}
	}
	if tr.Choices == nil {
		tr.Choices = []int{}
	}
	if tr.Steps == nil {
		tr.Steps = []trace.Step{}
	}
	rep := trace.Report{Verdict: trace.VerdictNoError, Timing: tr.Timing, Trace: tr, Stats: trace.Stats{
		States: float64(len(choices) + 1), Transitions: float64(len(choices)),
		TraceLen: float64(len(choices)), TimeS: time.Since(start).Seconds(),
		PeakMemBytes: float64(ms.Sys), Trials: 1,
	}}
	switch {
	case e != nil:
		rep.Verdict = trace.VerdictError
		rep.Error = trace.ErrorOf(e)
		rep.Stats.SuccessfulTrials = 1
	case !final.Exited() && !final.Terminal():
		rep.Verdict = trace.VerdictUnknown
	case final.Skipped():
		rep.Verdict = trace.VerdictSkip
		rep.Skip = &trace.SkipInfo{Log: append([]string{}, final.TestLog()...)}
	}
	if f.out != "" {
		if err := writeTraceFile(f.out, tr, rep.Error); err != nil {
			fmt.Fprintf(stderr, "gmc: %v\n", err)
			return exitInternal
		}
	}
	if f.json {
		writeJSON(stdout, rep)
	} else if e != nil {
		printCrash(stderr, e)
		if f.out != "" {
			fmt.Fprintf(stderr, "\ngmc: trace written to %s (gmc replay %s)\n", f.out, f.out)
		}
	} else if rep.Verdict == trace.VerdictUnknown {
		fmt.Fprintf(stderr, "gmc: stopped after %d transitions (--depth)\n", len(choices))
	} else if rep.Verdict == trace.VerdictSkip {
		fmt.Fprintf(stderr, "gmc: skipped: %s\n", strings.Join(rep.Skip.Log, "\n    "))
	}
	if e != nil {
		return exitFound
	}
	return exitOK
}
