package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"github.com/gmc-go/gmc/abstract"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/gmc-go/gmc/guide"
	"github.com/gmc-go/gmc/guide/check"
	"github.com/gmc-go/gmc/slice"
	"github.com/gmc-go/gmc/vm"
	"github.com/gmc-go/gmc/vm/load"
	"github.com/gmc-go/gmc/vm/trace"
)

// runFlags are the flags shared by run, check and replay.
type runFlags struct {
	entry    string
	seed     uint64
	json     bool
	out      string
	sched    string
	depth    int
	checks   string
	pkg      string
	progArgs []string
	// breakpoints recorded in a trace (replay only)
	breakpoints []string
	// unreachable locations recorded in a trace (replay only)
	unreachable []string
	// race lines recorded in a trace (replay only)
	raceAt []string
	// targets of the warning-specific reduction recorded in a trace
	// (replay only)
	reducedFor []string
	// inputs recorded in a trace: concrete fuzz inputs (replay only)
	inputs map[string]any
	// osInputs recorded in a trace: the values read from the operating
	// system (replay only)
	osInputs *vm.OSInputs
	// timing: the time model, synctest (default) or any (timers may fire
	// at any scheduling point: vm.Options.TimerChoice); a trace's for
	// replay
	timing string
	// timerChoiceDepth: timers may fire as a choice in the first this
	// many transitions (vm.Options.TimerChoiceDepth: a race flip's
	// trace; replay only)
	timerChoiceDepth int
	// grace: the run ends this many transitions after the entry returns
	// (vm.Options.EntryGrace)
	grace int
	// stepTime: real time per transition (vm.Options.StepTime), or as a
	// trace records it
	stepTime time.Duration
}

// walkFlags are run's scheduler flags (trace.WalkConfig).
type walkFlags struct {
	stay float64
}

func (w *walkFlags) register(fs *flag.FlagSet, f *runFlags) {
	fs.Float64Var(&w.stay, "stay", 0, "probability of running the last goroutine again, as Go's scheduler runs a goroutine until it blocks (never after Gosched, always after a go statement; else the goroutine it readied last, with the same probability); 0: pick uniformly")
}

func (f *runFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&f.entry, "entry", "", "entry function: main, TestXxx, FuzzXxx or a func() of the package (default: main, or the only test)")
	fs.StringVar(&f.entry, "run", "", "alias of --entry (as go test -run)")
	fs.Uint64Var(&f.seed, "seed", 1, "seed of the random choices")
	fs.BoolVar(&f.json, "json", false, "print one JSON object on stdout (the program's stdout goes to stderr)")
	fs.StringVar(&f.out, "out", "", "write the trace (and error) to this file for 'gmc replay'")
	fs.StringVar(&f.sched, "sched", "shared", "scheduling points: shared (sync ops and shared memory accesses) or sync (sync ops only)")
	fs.IntVar(&f.depth, "depth", 10000000, "maximum number of transitions of an execution")
	fs.IntVar(&f.grace, "grace", 0, "end the run this many transitions after the entry returns, as the process would, with goroutines still running (0: run until every goroutine has ended or blocked)")
	fs.DurationVar(&f.stepTime, "step-time", 0, "real time: every transition takes this long and timers fire when due, for programs that spin without repeating a state (0: virtual time as in testing/synctest, timers fire when every goroutine is blocked or spinning)")
	fs.StringVar(&f.timing, "timing", vm.TimingSynctest, "time model: synctest (timers fire only when every goroutine is blocked or spinning, never before their duration) or any (any timer may fire at any scheduling point: timing-dependent failures; findings say \"timing\": \"any\")")
	fs.StringVar(&f.checks, "check", "", "errors to look for, comma-separated: leak, deadlock, race, panic (panics and deadlocks are always errors; none: only those) (default: leak,deadlock,race,panic for test and function entries, leak,deadlock,panic for main)")
}

// parseInterleaved parses flags that may appear before or after the
// package argument; arguments after "--" are the program's.
func parseInterleaved(fs *flag.FlagSet, args []string) ([]string, []string, error) {
	var pos, prog []string
	for i, a := range args {
		if a == "--" {
			args, prog = args[:i], append([]string{}, args[i+1:]...)
			break
		}
	}
	for {
		if err := fs.Parse(args); err != nil {
			return nil, nil, err
		}
		rest := fs.Args()
		if len(rest) == 0 {
			break
		}
		pos = append(pos, rest[0])
		args = rest[1:]
	}
	return pos, prog, nil
}

func (f *runFlags) options(entryKind vm.EntryKind) (vm.Options, error) {
	o := vm.Options{Args: f.progArgs, EntryGrace: f.grace, StepTime: int64(f.stepTime), TimerChoiceDepth: f.timerChoiceDepth}
	switch f.timing {
	case vm.TimingAny:
		o.TimerChoice = true
	case vm.TimingStep: // as a trace records real time
		if f.stepTime <= 0 {
			return o, fmt.Errorf("--timing step needs --step-time D (real time: every transition takes D)")
		}
	case vm.TimingSynctest, "":
	default:
		return o, fmt.Errorf("unknown --timing %q (want synctest or any)", f.timing)
	}
	if f.stepTime < 0 {
		return o, fmt.Errorf("--step-time must not be negative (got %v)", f.stepTime)
	}
	if f.sched == "sync" {
		o.Sched = vm.SchedSync
	}
	checks := f.checks
	if checks == "" {
		checks = defaultChecks
		if entryKind == vm.EntryMain {
			checks = defaultMainChecks
		}
	}
	for _, c := range strings.Split(checks, ",") {
		switch strings.TrimSpace(c) {
		case "leak":
			o.Checks.Leak = true
		case "race":
			o.Checks.Race = true
		case "deadlock", "panic", "none", "":
			// always errors
		default:
			return o, fmt.Errorf("unknown --check %q (want a comma-separated list of leak, deadlock, race, panic, or none)", strings.TrimSpace(c))
		}
	}
	return o, nil
}

// defaultChecks are the checks of test, fuzz and function entries: a
// goroutine still blocked when a test returns is a bug, and so is a race.
// A main package's default adds to Go's own panics and deadlocks the
// goroutines leaked when main returns (Go 1.26's leak profile at exit).
const (
	defaultChecks     = "leak,deadlock,race,panic"
	defaultMainChecks = "leak,deadlock,panic"
)

func (f *runFlags) checkList(o vm.Options) []string { return check.CheckList(o) }

// usageErr prints a one-line usage error and returns exit code 2.
func usageErr(format string, args ...any) int {
	fmt.Fprintf(os.Stderr, "gmc: "+format+"\n", args...)
	return exitUsage
}

// loaded is a program ready to run.
type loaded struct {
	prog  *load.Program
	m     *vm.Machine
	entry vm.Entry
}

// loadAndPrepare loads pkg, finds the entry and builds the machine.
func loadAndPrepare(dir, pkg string, f *runFlags) (*loaded, int) {
	prog, code := loadProgram(dir, pkg)
	if prog == nil {
		return nil, code
	}
	probe := vm.New(prog, vm.Options{})
	e, err := probe.FindEntry(f.entry)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return nil, exitUsage
	}
	return prepareEntry(prog, e, f)
}

// loadProgram loads pkg from dir ("" for the current directory).
func loadProgram(dir, pkg string) (*load.Program, int) {
	prog, err := load.Load(load.Config{Dir: dir, Patterns: []string{pkg}})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return nil, exitUsage
	}
	return prog, exitOK
}

// prepareEntry builds the machine that runs entry e of prog with the
// options of f.
func prepareEntry(prog *load.Program, e vm.Entry, f *runFlags) (*loaded, int) {
	if f.sched != "shared" && f.sched != "sync" {
		return nil, usageErr("--sched must be shared or sync, not %q", f.sched)
	}
	opts, err := f.options(e.Kind)
	if err != nil {
		return nil, usageErr("%v", err)
	}
	bps, err := trace.ResolveBreakpoints(prog, f.breakpoints)
	if err != nil {
		fmt.Fprintf(os.Stderr, "gmc: %v\n", err)
		return nil, exitUsage
	}
	opts.Breakpoints = bps
	un, err := trace.ResolveBreakpoints(prog, f.unreachable)
	if err != nil {
		fmt.Fprintf(os.Stderr, "gmc: %v\n", err)
		return nil, exitUsage
	}
	marked, err := abstract.UnreachableComments(prog)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return nil, exitUsage
	}
	opts.Unreachable = append(un, marked...)
	if opts.RaceAt, err = trace.ResolveBreakpoints(prog, f.raceAt); err != nil {
		fmt.Fprintf(os.Stderr, "gmc: %v\n", err)
		return nil, exitUsage
	}
	if len(f.reducedFor) > 0 {
		if opts.ReducedFor, err = trace.ResolveBreakpoints(prog, f.reducedFor); err != nil {
			fmt.Fprintf(os.Stderr, "gmc: %v\n", err)
			return nil, exitUsage
		}
		opts.Invisible, _ = guide.Reduction(prog, slice.New(prog.SSA), opts.ReducedFor, e)
	}
	opts.Inputs = f.inputs
	opts.OSInputs = f.osInputs
	m := vm.New(prog, opts)
	return &loaded{prog: prog, m: m, entry: e}, exitOK
}

// absPkg makes a directory or file argument absolute so traces replay from anywhere.
func absPkg(pkg string) string {
	if _, err := os.Stat(pkg); err == nil {
		if abs, err := filepath.Abs(pkg); err == nil {
			return abs
		}
	}
	return pkg
}

// streamer copies new program output to the terminal as the run goes.
type streamer struct {
	n        int
	stdout   io.Writer
	stderr   io.Writer
	disabled bool
}

func (st *streamer) flush(s *vm.State) {
	chunks, n := s.OutputSince(st.n)
	st.n = n
	if st.disabled {
		return
	}
	for _, c := range chunks {
		if c.FD == 1 {
			io.WriteString(st.stdout, c.Data)
		} else {
			io.WriteString(st.stderr, c.Data)
		}
	}
}

// printCrash prints an error the way Go prints a crash, to w; a leak's
// goroutines as Go 1.26's goroutineleak profile prints them, their wait
// reason marked "(leaked)".
func printCrash(w io.Writer, e *vm.Error) {
	fmt.Fprintln(w, e.Msg)
	for _, g := range e.Goroutines {
		status := g.Status
		if g.Wait != "" {
			status = g.Wait
		}
		if e.Kind == vm.KindLeak {
			status += " (leaked)"
		}
		fmt.Fprintf(w, "\ngoroutine %d [%s]:\n", g.ID, status)
		for _, fr := range g.Stack {
			fmt.Fprintf(w, "%s(...)\n\t%s\n", fr.Func, fr.Pos)
		}
	}
	if e.Pos != "" && len(e.Goroutines) == 0 {
		fmt.Fprintf(w, "\tat %s\n", e.Pos)
	}
}

// Interleavings longer than maxPrintedSteps are printed as their first
// printedHead and last printedTail transitions (the trace file and --json
// have them all).
const (
	maxPrintedSteps = 1000
	printedHead     = 100
	printedTail     = 400
)

// printSteps prints the interleaving of a counterexample.
func printSteps(w io.Writer, steps []trace.Step) {
	fmt.Fprintf(w, "interleaving (%d transitions):\n", len(steps))
	for i, s := range steps {
		if len(steps) > maxPrintedSteps && i >= printedHead && i < len(steps)-printedTail {
			if i == printedHead {
				fmt.Fprintf(w, "  ...   (%d transitions not shown: see the trace file or --json)\n", len(steps)-printedHead-printedTail)
			}
			continue
		}
		fmt.Fprintf(w, "  %4d  g%-3d %-28s %s\n", i+1, s.G, s.Pos, s.Op)
	}
}

func writeJSON(w io.Writer, v any) error {
	return json.NewEncoder(w).Encode(v)
}

// traceFile is what --out writes and replay reads.
type traceFile struct {
	Trace *trace.Trace     `json:"trace"`
	Error *trace.ErrorInfo `json:"error,omitempty"`
}

func writeTraceFile(path string, tr *trace.Trace, e *trace.ErrorInfo) error {
	fh, err := os.Create(path)
	if err != nil {
		return err
	}
	defer fh.Close()
	return writeJSON(fh, traceFile{Trace: tr, Error: e})
}
