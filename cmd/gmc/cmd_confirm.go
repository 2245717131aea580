package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/gmc-go/gmc/abstract"
	"github.com/gmc-go/gmc/abstract/warn"
	"github.com/gmc-go/gmc/guide"
	"github.com/gmc-go/gmc/slice"
	"github.com/gmc-go/gmc/vm"
	"github.com/gmc-go/gmc/vm/load"
	"github.com/gmc-go/gmc/vm/loc"
	"github.com/gmc-go/gmc/vm/trace"
	"github.com/gmc-go/gmc/vm/trace/sarif"
	"golang.org/x/tools/go/analysis"
)

func init() { commands["confirm"] = runConfirm }

// confirmFlags are the flags of gmc confirm.
type confirmFlags struct {
	runFlags
	timeLimit   time.Duration
	entryLimit  time.Duration
	sarifIn     multiFlag
	sarifOut    string
	vet         bool
	staticcheck bool
	own         bool
	reduce      bool
	payload     bool
	args        []string
}

// jsonWarning is one warning's verdict in gmc confirm --json.
type jsonWarning struct {
	Source  string           `json:"source"`
	Check   string           `json:"check"`
	Pos     string           `json:"pos"`
	Msg     string           `json:"msg"`
	Targets []string         `json:"targets"`
	Verdict string           `json:"verdict"`
	Entries []string         `json:"entries"`
	Entry   string           `json:"entry,omitempty"`
	Error   *trace.ErrorInfo `json:"error,omitempty"`
	Bound   *trace.Bound     `json:"bound,omitempty"`
	States  int              `json:"states"`
	TimeS   float64          `json:"time_s"`
	Note    string           `json:"note,omitempty"`
	// Hidden: the memory accesses of the code under test the
	// warning-specific reduction made invisible (0: --reduce=false).
	Hidden int `json:"hidden_accesses"`
	// Abstracted, Dropped: the payload abstraction's sources in the
	// deciding searches, and the candidates dropped as used.
	Abstracted int    `json:"payload_sources"`
	Dropped    int    `json:"payload_dropped"`
	Trace      string `json:"trace,omitempty"`
	Replay     string `json:"replay,omitempty"`
}

// runConfirm implements `gmc confirm`: a verdict for each static warning
// (gmc's analyzers, go vet's concurrency analyzers, the results of SARIF
// logs, //gmc:unreachable comments) on the package's entries.
func runConfirm(args []string) int {
	fs := flag.NewFlagSet("confirm", flag.ContinueOnError)
	var f confirmFlags
	f.runFlags.register(fs)
	fs.DurationVar(&f.timeLimit, "time-limit", 10*time.Second, "time limit of each warning, shared by the entries that can reach it (at least 1s each)")
	fs.DurationVar(&f.entryLimit, "entry-time-limit", 0, "time limit of each entry that can reach a warning, instead of a share of --time-limit")
	fs.Var(&f.sarifIn, "sarif-in", "also confirm the results of this SARIF 2.1.0 log (repeatable)")
	fs.StringVar(&f.sarifOut, "sarif", "", "write the warnings with their verdicts as a SARIF 2.1.0 log to this file")
	fs.BoolVar(&f.vet, "vet", true, "confirm go vet's concurrency warnings (atomic, copylocks, lostcancel, testinggoroutine, waitgroup)")
	fs.BoolVar(&f.staticcheck, "staticcheck", true, "confirm staticcheck's concurrency warnings ("+strings.Join(warn.StaticcheckChecks, ", ")+")")
	fs.BoolVar(&f.reduce, "reduce", true, "warning-specific reduction: loads and stores of memory the warning, the branches, the synchronization and the panics do not depend on are not scheduling points")
	fs.BoolVar(&f.payload, "payload", true, "payload abstraction: states that differ only in integers that no branch, index or synchronization reads are one state (checked as the search runs; a use voids it)")
	fs.BoolVar(&f.own, "analyzers", true, "confirm the warnings of gmc's analyzers (gmc targets lists them)")
	fs.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: gmc confirm [flags] PKG [-- ARGS]")
		fmt.Fprintln(os.Stderr, "A verdict per warning: confirmed (an execution shows it: error kind, entry, replayable trace), infeasible (no execution of an entry that reaches its code shows it, within the stated bound), unreached (no entry reaches its code), unknown. --entry selects the entries (a name or a regular expression; default: every test, fuzz target and main). --out DIR writes the trace of each confirmed warning.")
		fs.PrintDefaults()
	}
	f.args = append([]string{"gmc", "confirm"}, args...)
	pos, progArgs, err := parseInterleaved(fs, args)
	if err != nil {
		return exitUsage
	}
	if len(pos) != 1 {
		return usageErr("confirm takes one package (got %d); see 'gmc confirm -h'", len(pos))
	}
	f.pkg, f.progArgs = pos[0], progArgs
	if _, err := f.options(vm.EntryTest); err != nil {
		return usageErr("%v", err)
	}
	prog, code := loadProgram("", f.pkg)
	if prog == nil {
		return code
	}
	es, code := confirmEntries(prog, f.entry)
	if code != exitOK {
		return code
	}
	ws, bad, code := gatherWarnings(&f, prog)
	if code != exitOK {
		return code
	}
	cfg := guide.ConfirmConfig{Entries: es, TimeLimit: f.timeLimit, EntryTimeLimit: f.entryLimit, Seed: f.seed, Reduce: f.reduce, Payload: f.payload,
		Options: func(e vm.Entry) vm.Options { o, _ := f.options(e.Kind); return o },
		Progress: func(w *guide.Warning, e vm.Entry) {
			if !f.json {
				fmt.Fprintf(os.Stderr, "gmc: %s %s: checking %s\n", w.Check, w.Pos, e.Fn.Name())
			}
		}}
	vs := guide.Confirm(context.Background(), prog, ws, cfg)
	out, code := describeVerdicts(&f, prog, vs)
	if code != exitOK {
		return code
	}
	if f.sarifOut != "" {
		if c := writeConfirmSARIF(&f, prog, vs, out); c != exitOK {
			return c
		}
	}
	counts := map[string]int{}
	for _, w := range out {
		counts[w.Verdict]++
	}
	summary := map[string]any{"warnings": len(out), "confirmed": counts[guide.Confirmed], "infeasible": counts[guide.Infeasible],
		"unreached": counts[guide.Unreached], "unknown": counts[guide.Undecided], "unresolved": len(bad)}
	if f.json {
		if out == nil {
			out = []jsonWarning{}
		}
		if bad == nil {
			bad = []warn.Unresolved{}
		}
		writeJSON(os.Stdout, struct {
			Pkg        string            `json:"pkg"`
			Warnings   []jsonWarning     `json:"warnings"`
			Unresolved []warn.Unresolved `json:"unresolved"`
			Summary    map[string]any    `json:"summary"`
		}{absPkg(f.pkg), out, bad, summary})
	} else {
		printVerdicts(os.Stdout, out, bad)
		fmt.Fprintf(os.Stderr, "gmc: %d warnings: %d confirmed, %d infeasible, %d unreached, %d unknown; %d not located\n",
			len(out), counts[guide.Confirmed], counts[guide.Infeasible], counts[guide.Unreached], counts[guide.Undecided], len(bad))
	}
	if counts[guide.Confirmed] > 0 {
		return exitFound
	}
	return exitOK
}

// confirmEntries resolves --entry to the entries to run: by default every
// test and fuzz target of the package and its main.
func confirmEntries(prog *load.Program, pattern string) ([]vm.Entry, int) {
	m := vm.New(prog, vm.Options{})
	var es []vm.Entry
	if pattern == "" || pattern == vm.AllEntries {
		if mp := prog.MainPackage(); mp != nil {
			es = append(es, vm.Entry{Fn: mp.Func("main"), Kind: vm.EntryMain})
		}
		pattern = vm.AllEntries
	}
	if pattern != vm.AllEntries {
		if e, err := m.FindEntry(pattern); err == nil {
			return []vm.Entry{e}, exitOK
		}
	}
	sel, err := vm.SelectEntries(vm.ListEntries(prog), pattern)
	if err != nil && len(es) == 0 {
		fmt.Fprintf(os.Stderr, "gmc: %v\n", err)
		return nil, exitUsage
	}
	for _, en := range sel {
		if en.Kind != vm.ListedTest && en.Kind != vm.ListedFuzz && pattern == vm.AllEntries {
			continue
		}
		if e, err := m.FindEntry(en.Name); err == nil {
			es = append(es, e)
		}
	}
	return es, exitOK
}

// gatherWarnings collects the warnings to confirm, in this order: gmc's
// analyzers, go vet's, staticcheck's, the SARIF logs, //gmc:unreachable comments.
func gatherWarnings(f *confirmFlags, prog *load.Program) ([]*guide.Warning, []warn.Unresolved, int) {
	resolve := func(spec string) (loc.Loc, error) { return abstract.ParseTarget(prog, spec) }
	var ws []*guide.Warning
	var bad []warn.Unresolved
	if f.own {
		for _, w := range warn.Run(prog, slice.New(prog.SSA)) {
			ws = append(ws, guide.NewWarning("gmc", w.Check, abstract.PositionOf(prog.Fset, w.Pos), w.Msg, w.Targets))
		}
	}
	for _, tool := range []struct {
		on        bool
		source    string
		analyzers func() []*analysis.Analyzer
	}{
		{f.vet, "vet", func() []*analysis.Analyzer { return warn.VetAnalyzers }},
		{f.staticcheck, "staticcheck", warn.StaticcheckAnalyzers},
	} {
		if !tool.on {
			continue
		}
		vws, vbad, err := warn.Vet(prog, tool.analyzers(), tool.source, resolve)
		if err != nil {
			fmt.Fprintf(os.Stderr, "gmc: %s's analyzers: %v; their warnings are skipped\n", tool.source, err)
			continue
		}
		for _, w := range vws {
			ws = append(ws, guide.NewWarning(tool.source, w.Check, abstract.PositionOf(prog.Fset, w.Pos), w.Msg, w.Targets))
		}
		bad = append(bad, vbad...)
	}
	for _, path := range f.sarifIn {
		rs, sbad, err := warn.ReadSARIF(path, prog.Fset, resolve)
		if err != nil {
			fmt.Fprintf(os.Stderr, "gmc: %v\n", err)
			return nil, nil, exitUsage
		}
		for _, r := range rs {
			w := r.Warning
			ws = append(ws, guide.NewWarning(r.Tool, w.Check, abstract.PositionOf(prog.Fset, w.Pos), w.Msg, w.Targets))
		}
		bad = append(bad, sbad...)
	}
	marked, err := abstract.UnreachableComments(prog)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return nil, nil, exitUsage
	}
	for _, l := range marked {
		pos := abstract.Position(prog.Fset, l)
		ws = append(ws, guide.NewWarning("comment", "unreachable", pos, "//gmc:unreachable", []loc.Loc{l}))
	}
	return ws, bad, exitOK
}

// describeVerdicts turns the verdicts into their JSON form; a confirmed
// warning's counterexample is replayed (it must give the same error) and,
// with --out DIR, written as a trace file.
func describeVerdicts(f *confirmFlags, prog *load.Program, vs []guide.WarningVerdict) ([]jsonWarning, int) {
	var out []jsonWarning
	for i, v := range vs {
		w := v.Warning
		jw := jsonWarning{Source: w.Source, Check: w.Check, Pos: w.Pos, Msg: w.Msg, Verdict: v.Verdict,
			States: v.States, TimeS: v.Time.Seconds(), Note: v.Note, Hidden: v.Hidden, Abstracted: v.Abstracted, Dropped: v.Dropped, Entries: []string{}, Targets: []string{}}
		for _, t := range w.Targets {
			jw.Targets = append(jw.Targets, abstract.Position(prog.Fset, t))
		}
		for _, e := range v.Entries {
			jw.Entries = append(jw.Entries, e.Fn.Name())
		}
		switch v.Verdict {
		case guide.Infeasible:
			if v.Exhausted {
				jw.Bound = &trace.Bound{Exhausted: true}
			} else {
				k := v.Preemptions
				jw.Bound = &trace.Bound{Preemptions: &k}
			}
		case guide.Confirmed:
			jw.Entry = v.Entry.Fn.Name()
			cf := &checkFlags{runFlags: f.runFlags, args: f.args}
			l := &loaded{prog: prog, m: v.Result.Best.Machine, entry: v.Entry}
			o, code, err := explain(cf, l, v.Result, false)
			if err != nil {
				fmt.Fprintln(os.Stderr, err)
				return nil, code
			}
			jw.Error = o.Report.Error
			if f.out != "" {
				if err := os.MkdirAll(f.out, 0o777); err != nil {
					fmt.Fprintf(os.Stderr, "gmc: %v\n", err)
					return nil, exitUsage
				}
				jw.Trace = filepath.Join(f.out, fmt.Sprintf("warning%d-%s.json", i+1, w.Check))
				if err := writeTraceFile(jw.Trace, o.Trace, o.Report.Error); err != nil {
					fmt.Fprintf(os.Stderr, "gmc: %v\n", err)
					return nil, exitUsage
				}
				jw.Replay = "gmc replay " + shellQuote(jw.Trace)
			}
		}
		out = append(out, jw)
	}
	return out, exitOK
}

// verdictDetail is the text table's column after the verdict.
func verdictDetail(w jsonWarning) string {
	switch w.Verdict {
	case guide.Confirmed:
		kind := w.Error.Kind
		if kind == string(vm.KindUnreachable) && w.Source != "comment" {
			kind = "reached" // a misuse: the warned line runs
		}
		d := fmt.Sprintf("%s in %s (%s states)", kind, w.Entry, thousands(w.States))
		if w.Trace != "" {
			d += "; " + w.Replay
		}
		return d
	case guide.Infeasible:
		return fmt.Sprintf("%s, %s (%s states)", boundText(w.Bound), entryCount(len(w.Entries)), thousands(w.States))
	case guide.Unreached:
		return "no entry reaches its code"
	}
	if w.Note != "" {
		return w.Note
	}
	return fmt.Sprintf("%s, %s states", entryCount(len(w.Entries)), thousands(w.States))
}

func boundText(b *trace.Bound) string {
	if b == nil {
		return ""
	}
	if b.Exhausted {
		return "exhausted"
	}
	if b.Preemptions != nil {
		return fmt.Sprintf("up to %d preemptions", *b.Preemptions)
	}
	return ""
}

func printVerdicts(w io.Writer, out []jsonWarning, bad []warn.Unresolved) {
	fmt.Fprintf(w, "%-10s %-19s %-22s %s\n", "VERDICT", "CHECK", "POSITION", "DETAIL / MESSAGE")
	for _, v := range out {
		check := v.Check
		if v.Source != "gmc" {
			check = v.Source + ":" + v.Check
		}
		fmt.Fprintf(w, "%-10s %-19s %-22s %s\n%-10s %-19s %-22s   %s\n", v.Verdict, check, v.Pos, verdictDetail(v), "", "", "", firstLine(v.Msg))
	}
	for _, b := range bad {
		fmt.Fprintf(w, "%-10s %-19s %-22s %s: %s\n", "unlocated", b.Source+":"+b.Check, b.Pos, firstLine(b.Msg), b.Why)
	}
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	return s
}

// writeConfirmSARIF writes the warnings and their verdicts (--sarif).
func writeConfirmSARIF(f *confirmFlags, prog *load.Program, vs []guide.WarningVerdict, out []jsonWarning) int {
	log, code := newSARIFLog(prog, f.args)
	if log == nil {
		return code
	}
	for i, v := range vs {
		jw := out[i]
		r := sarif.WarningResult{Source: jw.Source, Check: jw.Check, Message: jw.Msg, Verdict: jw.Verdict,
			Props: map[string]any{"entries": jw.Entries, "states": jw.States, "time_s": jw.TimeS}}
		if len(v.Warning.Targets) > 0 {
			r.Loc = v.Warning.Targets[0]
		}
		switch jw.Verdict {
		case guide.Infeasible:
			r.Justification = fmt.Sprintf("gmc confirm: no execution shows it (%s) in entries %s", boundText(jw.Bound), strings.Join(jw.Entries, ", "))
		case guide.Confirmed:
			e := v.Result.Best.Result.Final.Err()
			fd := &sarif.Finding{Entry: jw.Entry, Kind: jw.Error.Kind, Message: jw.Error.Message, TraceFile: jw.Trace, Replay: jw.Replay}
			if e != nil {
				fd.Goroutines = e.Goroutines
			}
			r.Error = fd
			r.Justification = jw.Error.Kind + " in " + jw.Entry
		case guide.Undecided:
			r.Justification = jw.Note
		}
		log.AddWarning(r)
	}
	return finishSARIFLog(log, f.sarifOut, f.json)
}

// entryCount is "1 entry" or "N entries".
func entryCount(n int) string {
	if n == 1 {
		return "1 entry"
	}
	return fmt.Sprintf("%d entries", n)
}
