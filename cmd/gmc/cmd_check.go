package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/gmc-go/gmc/abstract"
	"github.com/gmc-go/gmc/guide"
	"github.com/gmc-go/gmc/guide/check"
	"github.com/gmc-go/gmc/heuristics"
	"github.com/gmc-go/gmc/vm"
	"github.com/gmc-go/gmc/vm/load"
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
	eager        bool
	restartRef   bool
	sarif        string
	timeline     string
	timelinePNG  string
	stream       bool // --json-stream (stream.go)
	monitor      string
	monitors     guide.Monitors // parsed --monitor
	flip         bool           // flip each race found (cmd_check_flip.go)
	// args is the command line (for the SARIF log and replay commands)
	args []string
}

func (f *checkFlags) register(fs *flag.FlagSet) {
	f.runFlags.register(fs)
	fs.Var(&f.targets, "target", "target location file.go:LINE to reach (repeatable; all at once)")
	fs.StringVar(&f.strategy, "strategy", "guided", "search strategy: guided, dfs, rdfs, random, bfs, exhaustive or dpor (source-DPOR: stateless, every interleaving up to reordering independent steps)")
	fs.StringVar(&f.heuristic, "heuristic", "pfsm", "secondary heuristic of the guided search: pfsm, fsm, random or prefer-threads")
	fs.IntVar(&f.trials, "trials", 1, "independent trials (seeds seed, seed+1, ...)")
	fs.IntVar(&f.parallel, "parallel", runtime.GOMAXPROCS(0), "cores a check runs on: trials at once and, with a core to spare for each trial, the bounded exhaustive search of each on a core of its own (default: GOMAXPROCS, as go test -parallel)")
	fs.BoolVar(&f.allTrials, "all-trials", false, "run every trial to completion (error density) instead of stopping at the first counterexample")
	fs.DurationVar(&f.timeLimit, "time-limit", 60*time.Second, "time limit of each trial (of each entry)")
	fs.IntVar(&f.maxBacktrack, "max-backtrack", 100000, "capacity of the guided search's backtrack set")
	fs.BoolVar(&f.noRefine, "no-refine", false, "do not refine the abstract traces when the guided search stalls at a branch")
	fs.BoolVar(&f.eager, "eager", false, "guided search: run every successor of a state before ranking them (the seed's), instead of ranking the choices first and running the best")
	fs.BoolVar(&f.restartRef, "restart-refine", false, "guided search: start again from the initial state after every refinement (the seed's), instead of going on where it stalled")
	fs.StringVar(&f.sarif, "sarif", "", "write the errors found as a SARIF 2.1.0 log to this file (for code-scanning upload)")
	fs.StringVar(&f.timeline, "timeline", "", "write the counterexample as a Chrome/Perfetto trace-event timeline (JSON) to this file (several entries: to this directory)")
	fs.BoolVar(&f.flip, "flip", true, "run a race's two accesses in both orders and search on for a failure: the race is reported harmful or not (a share of --time-limit)")
	fs.BoolVar(&f.stream, "json-stream", false, "print go test -json-shaped events on stdout, one JSON object per line: start, then run, output and pass/fail/skip (with the verdict) per entry, then the package's pass/fail with a summary; without --entry every test, fuzz target and example is checked")
	fs.StringVar(&f.monitor, "monitor", defaultMonitors, "runtime monitors run on every execution, a comma-separated list: lockgraph (predicts lock-order deadlocks and guides the search to them; only a deadlock reached is reported), predict (predicts races beyond happens-before from each run and guides the search to them; only a race an executed run shows is reported), or none")
	fs.StringVar(&f.timelinePNG, "timeline-png", "", "draw the counterexample's timeline as a Gantt chart (PNG) to this file (one entry only)")
}

// runCheck implements `gmc check`: search for an error or a target, in one
// entry, or in each entry that --entry's pattern selects.
func runCheck(args []string) int {
	fs := flag.NewFlagSet("check", flag.ContinueOnError)
	var f checkFlags
	f.register(fs)
	fs.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: gmc check [flags] PKG... [-- ARGS]")
		fmt.Fprintln(os.Stderr, "--entry takes an entry name, or 'all', or a regular expression: then every matching test, fuzz target and registered function is checked in turn")
		fs.PrintDefaults()
	}
	f.args = append([]string{"gmc", "check"}, args...)
	pos, progArgs, err := parseInterleaved(fs, args)
	if err != nil {
		return exitUsage
	}
	if len(pos) > 1 || len(pos) == 1 && strings.HasSuffix(pos[0], "...") {
		return checkPattern(args, pos)
	}
	if len(pos) != 1 {
		return usageErr("check takes packages (got none); see 'gmc check -h'")
	}
	f.pkg, f.progArgs = pos[0], progArgs
	if f.monitors, err = guide.ParseMonitors(f.monitor); err != nil {
		return usageErr("%v", err)
	}
	tuneGC() // (gc.go)
	if !validStrategy(f.strategy) {
		return usageErr("unknown --strategy %q (want guided, dfs, rdfs, random, bfs, exhaustive or dpor)", f.strategy)
	}
	switch heuristics.Secondary(f.heuristic) {
	case heuristics.SecPFSM, heuristics.SecFSM, heuristics.SecRandom, heuristics.SecPreferThreads:
	default:
		return usageErr("unknown --heuristic %q (want pfsm, fsm, random or prefer-threads)", f.heuristic)
	}
	prog, code := loadProgram("", f.pkg)
	if prog == nil {
		return code
	}
	e, findErr := vm.New(prog, vm.Options{}).FindEntry(f.entry)
	if f.entry == "" && noTestFiles(prog, findErr) {
		return reportNoTestFiles(&f, prog)
	}
	if f.stream {
		sel, err := vm.ResolveEntries(prog, f.entry)
		if err != nil {
			if checkingPattern {
				fmt.Fprintf(os.Stderr, "gmc: %v (skipped)\n", strings.TrimPrefix(err.Error(), "gmc: "))
				return exitOK
			}
			fmt.Fprintf(os.Stderr, "gmc: %v\n", strings.TrimPrefix(err.Error(), "gmc: "))
			return exitUsage
		}
		if f.timelinePNG != "" {
			return usageErr("--timeline-png draws one entry's counterexample; with --json-stream use --timeline DIR")
		}
		f.json = true // no text on stdout but the events
		return runCheckMulti(&f, prog, sel)
	}
	if findErr != nil && f.entry != "" {
		// not an entry's name: a pattern over the package's entries
		sel, err := vm.ResolveEntries(prog, f.entry)
		if err != nil && checkingPattern {
			fmt.Fprintf(os.Stderr, "gmc: %v (skipped)\n", err) // as go test -run: no tests to run
			return exitOK
		}
		if err != nil {
			if f.entry != vm.AllEntries && !strings.ContainsAny(f.entry, `\.+*?()|[]{}^$`) {
				fmt.Fprintln(os.Stderr, findErr) // a plain name: say it is missing
			} else {
				fmt.Fprintf(os.Stderr, "gmc: %v\n", err)
			}
			return exitUsage
		}
		if f.timelinePNG != "" {
			return usageErr("--timeline-png draws one entry's counterexample; with several entries use --timeline DIR")
		}
		return runCheckMulti(&f, prog, sel)
	}
	if findErr != nil && f.entry == "" {
		// no main and several entries: every test, fuzz target and example, as go test runs them
		if sel, err := vm.ResolveEntries(prog, ""); err == nil && f.timelinePNG == "" {
			return runCheckMulti(&f, prog, sel)
		}
	}
	if findErr != nil {
		fmt.Fprintln(os.Stderr, findErr)
		return exitUsage
	}
	l, code := prepareEntry(prog, e, &f.runFlags)
	if l == nil {
		return code
	}
	targets, code := checkTargets(&f, prog)
	if code != exitOK {
		return code
	}
	settleHeap() // (gc.go)
	progress := newProgressLine(os.Stderr, !f.json)
	start := time.Now()
	o, code, err := search(&f, l, targets, progress.update, f.timeline != "" || f.timelinePNG != "")
	progress.clear()
	if err != nil && (e.Kind == vm.EntryTest || e.Kind == vm.EntryFuzz || e.Kind == vm.EntryExample) && code == exitUsage {
		// a test or fuzz target that stopped (an OS boundary, an unsupported
		// call): "not checked", as a check of several entries reports it
		return reportNotChecked(&f, e, err)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return code
	}
	return reportCheck(&f, l, o, start)
}

// checkTargets resolves the --target flags (or the program's target
// comments).
func checkTargets(f *checkFlags, prog *load.Program) ([]loc.Loc, int) {
	var targets []loc.Loc
	for _, spec := range f.targets {
		t, err := abstract.ParseTarget(prog, spec)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return nil, exitUsage
		}
		targets = append(targets, t)
	}
	if len(targets) == 0 {
		sites, err := abstract.CommentTargets(prog)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return nil, exitUsage
		}
		for _, s := range sites {
			targets = append(targets, s.Loc)
		}
	}
	return targets, exitOK
}

func validStrategy(s string) bool {
	for _, x := range guide.Strategies {
		if string(x) == s {
			return true
		}
	}
	return false
}

// reportCheck prints the outcome of a single-entry check, writes the
// requested files and returns the exit code.
func reportCheck(f *checkFlags, l *loaded, o *check.Outcome, start time.Time) int {
	rep := o.Report
	stdout := io.Writer(os.Stdout)
	progOut := stdout
	if f.json {
		progOut = os.Stderr
	}
	if o.Trace != nil {
		if !f.json {
			b := o.Result.Best
			fmt.Fprintf(os.Stderr, "gmc: %s found after %d states in %.2fs (trial seed %d)%s; counterexample of %d transitions\n",
				rep.Error.Kind, b.Result.Stats.States, b.Result.Stats.Time.Seconds(), b.Seed, timingNote(rep.Timing), len(o.Trace.Steps))
			printSteps(os.Stderr, o.Trace.Steps)
			st := &streamer{stdout: progOut, stderr: os.Stderr}
			st.flush(o.Final)
			if o.Err != nil {
				printCrash(os.Stderr, o.Err)
			} else {
				fmt.Fprintln(os.Stderr, rep.Error.Message)
			}
		}
		if f.out != "" {
			if err := writeFlipTrace(o, f.out); err != nil {
				fmt.Fprintf(os.Stderr, "gmc: %v\n", err)
				return exitInternal
			}
			if err := writeTraceFile(f.out, o.Trace, rep.Error); err != nil {
				fmt.Fprintf(os.Stderr, "gmc: %v\n", err)
				return exitInternal
			}
			if !f.json {
				fmt.Fprintf(os.Stderr, "gmc: trace written to %s (replay: gmc replay %s)\n", f.out, f.out)
			}
		}
		if !f.json {
			printFlip(os.Stderr, rep.Error)
		}
	} else if !f.json {
		switch rep.Verdict {
		case guide.VerdictSkip:
			fmt.Fprintf(os.Stderr, "gmc: %s\n", skipText(&rep, time.Since(start).Seconds()))
		case guide.VerdictNoError:
			fmt.Fprintf(os.Stderr, "gmc: %s, %.2fs\n", noErrorText(rep.Bound, int(rep.Stats.States)), time.Since(start).Seconds())
		default:
			fmt.Fprintf(os.Stderr, "gmc: no error found within the bounds (%d states, %.2fs); verdict unknown\n", int(rep.Stats.States), time.Since(start).Seconds())
		}
	}
	if !f.json {
		printMonitorNotes(&rep)
	}
	if code := writeOutputs(f, l.prog, []*check.Outcome{o}, func(*check.Outcome) string { return f.out }, func(*check.Outcome) string { return f.timeline }); code != exitOK {
		return code
	}
	if f.json {
		writeJSON(stdout, rep)
	}
	if o.Trace != nil {
		return exitFound
	}
	return exitOK
}

// progressLine shows search progress on one terminal line.
type progressLine struct {
	w       io.Writer
	enabled bool
	shown   bool
	prefix  string
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
	fmt.Fprintf(p.w, "\r\033[Kgmc: %s%d states, depth %d, %.0f states/s, best level %d, %.0fs",
		p.prefix, pr.States, pr.Depth, pr.Rate, pr.BestLevel, pr.Elapsed.Seconds())
}

func (p *progressLine) clear() {
	if p.shown {
		fmt.Fprint(p.w, "\r\033[K")
		p.shown = false
	}
}

// timingNote says under which time model an error was found when it is
// not the default (vm.Options.Timing).
func timingNote(timing string) string {
	switch timing {
	case vm.TimingAny:
		return " under --timing any (a timer may fire before its duration has passed)"
	case vm.TimingStep:
		return " in real time (--step-time)"
	}
	return ""
}

// checkingPattern is set while checkPattern runs: a package none of whose
// entries --entry selects is skipped, not an error.
var checkingPattern bool

// checkPattern checks every package the patterns (./..., several
// packages) match (go list lists them; those without test files or main
// are skipped), one after the other with the same flags, as go test
// does. The exit code is the worst: internal error, then usage or load
// error, then an error found.
func checkPattern(args []string, patterns []string) int {
	list := append([]string{"list", "-f", "{{.Dir}}\t{{.Name}}\t{{len .TestGoFiles}}\t{{len .XTestGoFiles}}"}, patterns...)
	cmd := exec.Command("go", list...)
	cmd.Stderr = os.Stderr // the go tool's own messages ("matched no packages", build errors)
	out, err := cmd.Output()
	if err != nil {
		fmt.Fprintf(os.Stderr, "gmc: go list %s: %v\n", strings.Join(patterns, " "), err)
		return exitUsage
	}
	checkingPattern = true
	defer func() { checkingPattern = false }()
	rank := map[int]int{exitOK: 0, exitFound: 1, exitUsage: 2, exitInternal: 3}
	worst := exitOK
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		fields := strings.Split(line, "\t")
		if len(fields) != 4 || (fields[1] != "main" && fields[2] == "0" && fields[3] == "0") {
			continue // no test files and no main: nothing to check, as go test says
		}
		a := withPackage(args, patterns, fields[0])
		fmt.Fprintf(os.Stderr, "gmc: package %s\n", fields[0])
		if code := runCheck(a); rank[code] > rank[worst] {
			worst = code
		}
	}
	return worst
}

// withPackage is args with the package patterns replaced by dir, in the
// place of the first: the patterns are the positional arguments, which
// come after the flags whose values might read the same ("--run ." and
// the package "."), so they are found from the end (before "--").
func withPackage(args, patterns []string, dir string) []string {
	end := len(args)
	if i := slices.Index(args, "--"); i >= 0 {
		end = i
	}
	drop := map[int]bool{}
	left := slices.Clone(patterns)
	for i := end - 1; i >= 0 && len(left) > 0; i-- {
		if j := slices.Index(left, args[i]); j >= 0 {
			drop[i] = true
			left = slices.Delete(left, j, j+1)
		}
	}
	a := make([]string, 0, len(args))
	placed := false
	for i, x := range args {
		if drop[i] {
			if !placed {
				a, placed = append(a, dir), true
			}
			continue
		}
		a = append(a, x)
	}
	return a
}

// reportNotChecked reports a test or fuzz target that could not be
// checked: "gmc: NAME: not checked: PROBLEM" on stderr and, with --json,
// the entry's object of a several-entry check on stdout; exit 2.
func reportNotChecked(f *checkFlags, e vm.Entry, err error) int {
	kind := vm.ListedTest
	switch e.Kind {
	case vm.EntryFuzz:
		kind = vm.ListedFuzz
	case vm.EntryExample:
		kind = vm.ListedExample
	}
	r := entryReport{Entry: e.Fn.Name(), EntryKind: string(kind), Problem: strings.TrimPrefix(err.Error(), "gmc: "), code: exitUsage}
	r.Verdict = trace.VerdictUnknown
	fmt.Fprintln(os.Stderr, "gmc: "+resultLine(r))
	if f.json {
		b, jerr := json.Marshal(r)
		if jerr != nil {
			return exitInternal
		}
		fmt.Println(string(b))
	}
	return r.code
}

// noTestFiles reports whether a package checked without --entry has
// nothing to check: no main function, tests, fuzz targets or examples
// (go test's "[no test files]"); findErr is FindEntry's error for it.
func noTestFiles(prog *load.Program, findErr error) bool {
	var ne *vm.NoEntriesError
	if !errors.As(findErr, &ne) {
		return false
	}
	sel, err := vm.ResolveEntries(prog, "")
	return err != nil || len(sel) == 0
}

// reportNoTestFiles says, as go test does, that a package has nothing to
// check: "?   \tPKG\t[no test files]" on stdout (with --json-stream, the
// package's start and a skip event holding that line; with --json, a
// several-entry object with no results); exit 0.
func reportNoTestFiles(f *checkFlags, prog *load.Program) int {
	es := newEventStream(os.Stdout, prog) // (its package name is go test's)
	line := "?   \t" + es.pkg + "\t[no test files]\n"
	switch {
	case f.stream:
		es.begin()
		es.emit(event{Action: "output", Output: line})
		el := 0.0
		es.emit(event{Action: "skip", Elapsed: &el})
	case f.json:
		writeJSON(os.Stdout, multiReport{Pkg: absPkg(f.pkg), Results: []entryReport{}, Summary: multiSummary{Kinds: map[string]int{}}})
	default:
		fmt.Print(line)
	}
	return exitOK
}
