package main

import (
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"strings"

	"github.com/gmc-go/gmc/guide/check"
	"github.com/gmc-go/gmc/vm/load"
	"github.com/gmc-go/gmc/vm/trace/sarif"
	"github.com/gmc-go/gmc/vm/trace/timeline/gantt"
)

// writeOutputs writes the SARIF log (--sarif) of the outcomes and the
// timeline of each counterexample found (--timeline); traceFile and
// timelineFile name an outcome's files ("" for none). It returns the exit
// code of a failure to write.
func writeOutputs(f *checkFlags, prog *load.Program, outs []*check.Outcome, traceFile, timelineFile func(*check.Outcome) string) int {
	for _, o := range outs {
		path := timelineFile(o)
		if o.Timeline == nil || path == "" {
			continue
		}
		if err := writeFileWith(path, o.Timeline.Write); err != nil {
			fmt.Fprintf(os.Stderr, "gmc: %v\n", err)
			return exitInternal
		}
		if !f.json {
			fmt.Fprintf(os.Stderr, "gmc: timeline of %s written to %s (open it in ui.perfetto.dev)\n", o.Entry, path)
		}
	}
	for _, o := range outs {
		if o.Timeline == nil || f.timelinePNG == "" {
			continue
		}
		if err := writeFileWith(f.timelinePNG, func(w io.Writer) error { return gantt.WritePNG(o.Timeline.File(), gantt.Options{From: -1}, w) }); err != nil {
			fmt.Fprintf(os.Stderr, "gmc: %v\n", err)
			return exitInternal
		}
		if !f.json {
			fmt.Fprintf(os.Stderr, "gmc: timeline chart of %s written to %s\n", o.Entry, f.timelinePNG)
		}
	}
	if f.sarif == "" {
		return exitOK
	}
	log, code := newSARIFLog(prog, f.args)
	if log == nil {
		return code
	}
	for _, o := range outs {
		if o.Trace == nil {
			continue
		}
		var fd sarif.Finding
		if o.Err != nil {
			fd = sarif.FindingOf(o.Entry, o.Err)
		} else {
			fd = sarif.Finding{Entry: o.Entry, Kind: o.Report.Error.Kind, Message: o.Report.Error.Message, Loc: o.LastLoc}
		}
		fd.Steps = o.Steps
		fd.TraceFile = traceFile(o)
		fd.Replay = replayCommand(f, o.Entry, fd.TraceFile)
		fd.Stats = map[string]any{"states": o.Report.Stats.States, "time_s": o.Report.Stats.TimeS,
			"trace_len": len(o.Trace.Choices), "seed": o.Trace.Seed}
		log.Add(fd)
	}
	return finishSARIFLog(log, f.sarif, f.json)
}

// newSARIFLog starts the SARIF log of this invocation, relative to the
// current directory.
func newSARIFLog(prog *load.Program, args []string) (*sarif.Log, int) {
	wd, err := os.Getwd()
	if err != nil {
		fmt.Fprintf(os.Stderr, "gmc: %v\n", err)
		return nil, exitInternal
	}
	log, err := sarif.New(prog.Fset, wd, gmcVersion(), args)
	if err != nil {
		fmt.Fprintf(os.Stderr, "gmc: %v\n", err)
		return nil, exitInternal
	}
	return log, exitOK
}

// finishSARIFLog writes log to path.
func finishSARIFLog(log *sarif.Log, path string, quiet bool) int {
	if err := writeFileWith(path, log.Write); err != nil {
		fmt.Fprintf(os.Stderr, "gmc: %v\n", err)
		return exitInternal
	}
	if !quiet {
		fmt.Fprintf(os.Stderr, "gmc: SARIF log written to %s\n", path)
	}
	return exitOK
}

// writeFileWith creates path and fills it with write.
func writeFileWith(path string, write func(io.Writer) error) error {
	fh, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := write(fh); err != nil {
		fh.Close()
		return err
	}
	return fh.Close()
}

// replayCommand is the command that reproduces the error found in entry:
// gmc replay of its trace file when one was written, else this check
// restricted to the entry (the search is deterministic).
func replayCommand(f *checkFlags, entry, traceFile string) string {
	if traceFile != "" {
		return "gmc replay " + shellQuote(traceFile)
	}
	dropValue := map[string]bool{"entry": true, "sarif": true, "timeline": true, "out": true}
	cmd := []string{"gmc", "check", "--entry", shellQuote(entry)}
	args := f.args[2:]
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			cmd = append(cmd, quoteAll(args[i:])...)
			break
		}
		name, _, hasValue := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if strings.HasPrefix(a, "-") && (dropValue[name] || name == "json") {
			if dropValue[name] && !hasValue {
				i++ // the value is the next argument
			}
			continue
		}
		cmd = append(cmd, shellQuote(a))
	}
	return strings.Join(cmd, " ")
}

func quoteAll(args []string) []string {
	out := make([]string, len(args))
	for i, a := range args {
		out[i] = shellQuote(a)
	}
	return out
}

// shellQuote quotes s for a POSIX shell when it needs it.
func shellQuote(s string) string {
	if s != "" && !strings.ContainsAny(s, " \t\n'\"\\$`*?[](){}|&;<>!#~") {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// gmcVersion is the version of the gmc module this binary was built from
// ("" when unknown).
func gmcVersion() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok || bi.Main.Version == "" || bi.Main.Version == "(devel)" {
		return ""
	}
	return bi.Main.Version
}
