package main

import (
	"context"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"text/tabwriter"

	"github.com/gmc-go/gmc/guide"
	"github.com/gmc-go/gmc/guide/check"
	"github.com/gmc-go/gmc/vm"
	"github.com/gmc-go/gmc/vm/load"
	"github.com/gmc-go/gmc/vm/trace"
)

// entryReport is one entry's result in the JSON of a multi-entry check:
// the single-entry report of the contract (DESIGN §4) plus the entry, how
// its counterexample replayed, the files written, and why the entry could
// not be checked (problem).
type entryReport struct {
	Entry     string `json:"entry"`
	EntryKind string `json:"entry_kind"`
	trace.Report
	ReplayOK     *bool  `json:"replay_ok,omitempty"`
	TraceFile    string `json:"trace_file,omitempty"`
	TimelineFile string `json:"timeline_file,omitempty"`
	Problem      string `json:"problem,omitempty"`

	code int // exit code of a problem
}

// multiSummary sums up a multi-entry check.
type multiSummary struct {
	Entries     int            `json:"entries"`
	Errors      int            `json:"errors"`
	Kinds       map[string]int `json:"kinds"`
	NoError     int            `json:"no_error"`
	Skipped     int            `json:"skipped"`
	Unknown     int            `json:"unknown"`
	NotChecked  int            `json:"not_checked"`
	ReplayOK    int            `json:"replay_ok"`
	TimeS       float64        `json:"time_s"`
	MedianTimeS float64        `json:"median_time_s"`
}

// multiReport is the JSON object of a multi-entry check (--json).
type multiReport struct {
	Pkg     string        `json:"pkg"`
	Results []entryReport `json:"results"`
	Summary multiSummary  `json:"summary"`
}

// exitError is an exit code as an error: a failure of one entry that ends
// a check of several (check.Hooks).
type exitError int

func (e exitError) Error() string { return fmt.Sprintf("exit code %d", int(e)) }

// runCheckMulti checks each selected entry in turn: one result line per
// entry, then a summary table (stderr), or one JSON object (--json). --out
// and --timeline name directories that get one file per counterexample.
// Exit code: 1 if an error was found in any entry, else 3 or 2 if an entry
// could not be checked (internal error, unsupported feature), else 0.
func runCheckMulti(f *checkFlags, prog *load.Program, sel []vm.Listed) int {
	for _, dir := range []string{f.out, f.timeline} {
		if dir == "" {
			continue
		}
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return usageErr("with several entries, --out and --timeline name directories: %v", err)
		}
	}
	targets, code := checkTargets(f, prog)
	if code != exitOK {
		return code
	}
	var reports []entryReport
	var outs []*check.Outcome
	files := map[*check.Outcome][2]string{} // trace file, timeline file
	progress := newProgressLine(os.Stderr, !f.json || f.stream)
	var es *eventStream
	if f.stream {
		es = newEventStream(os.Stdout, prog)
		es.begin()
	}
	cfg := f.config(targets, progress.update, f.timeline != "")
	hooks := check.Hooks{
		Prepare: func(e vm.Entry) (check.Prepared, error) {
			l, code := prepareEntry(prog, e, &f.runFlags)
			if l == nil {
				return check.Prepared{}, exitError(code) // a bad flag: the same for every entry
			}
			return l.prepared(), nil
		},
		Start: func(i int, se vm.Listed) {
			if es != nil {
				es.run(se.Name)
			}
			progress.prefix = fmt.Sprintf("[%d/%d] %s: ", i+1, len(sel), se.Name)
		},
		Done: func(i int, eo check.EntryOutcome) error {
			se, o, err := eo.Listed, eo.Outcome, eo.Err
			r := entryReport{Entry: se.Name, EntryKind: string(se.Kind)}
			if eo.NotFound {
				r.Problem, r.code = err.Error(), exitUsage
				reports = append(reports, r)
				if es != nil {
					es.result(r)
				}
				return nil
			}
			progress.clear()
			if err != nil {
				r.Problem, r.code = strings.TrimPrefix(err.Error(), "gmc: "), errCode(err)
				r.Verdict = trace.VerdictUnknown
			} else {
				r.Report = o.Report
				if o.Trace != nil {
					ok := o.Replayed
					r.ReplayOK = &ok
					if f.out != "" {
						r.TraceFile = filepath.Join(f.out, se.Name+".json")
						if err := writeFlipTrace(o, r.TraceFile); err != nil {
							fmt.Fprintf(os.Stderr, "gmc: %v\n", err)
							return exitError(exitInternal)
						}
						if err := writeTraceFile(r.TraceFile, o.Trace, o.Report.Error); err != nil {
							fmt.Fprintf(os.Stderr, "gmc: %v\n", err)
							return exitError(exitInternal)
						}
					}
					if f.timeline != "" {
						r.TimelineFile = filepath.Join(f.timeline, se.Name+".timeline.json")
					}
					files[o] = [2]string{r.TraceFile, r.TimelineFile}
				}
				o.Slim()
				outs = append(outs, o)
			}
			reports = append(reports, r)
			if es != nil {
				es.result(r)
			}
			if !f.json {
				fmt.Fprintf(os.Stderr, "gmc: [%d/%d] %s\n", i+1, len(sel), resultLine(r))
			}
			return nil
		},
	}
	if err := check.Entries(context.Background(), prog, sel, cfg, hooks); err != nil {
		return int(err.(exitError))
	}
	quiet := *f
	quiet.json = true // one line per file would drown the table
	if code := writeOutputs(&quiet, prog, outs, func(o *check.Outcome) string { return files[o][0] }, func(o *check.Outcome) string { return files[o][1] }); code != exitOK {
		return code
	}
	sum := summarize(reports)
	if es != nil {
		es.end(sum)
	} else if f.json {
		writeJSON(os.Stdout, multiReport{Pkg: absPkg(f.pkg), Results: reports, Summary: sum})
	} else {
		printTable(os.Stderr, reports, sum)
		if f.sarif != "" {
			fmt.Fprintf(os.Stderr, "gmc: SARIF log written to %s\n", f.sarif)
		}
		if f.timeline != "" && len(outs) > 0 {
			fmt.Fprintf(os.Stderr, "gmc: timelines written to %s (open them in ui.perfetto.dev)\n", f.timeline)
		}
	}
	worst := exitOK
	for _, r := range reports {
		switch {
		case r.Verdict == trace.VerdictError:
			return exitFound
		case r.code == exitInternal:
			worst = exitInternal
		case r.code != exitOK && worst == exitOK:
			worst = r.code
		}
	}
	return worst
}

// resultLine is one entry's result in words.
func resultLine(r entryReport) string {
	switch {
	case r.Problem != "":
		return fmt.Sprintf("%s: not checked: %s", r.Entry, r.Problem)
	case r.Error != nil:
		s := fmt.Sprintf("%s: %s found (%d states, %.2fs)%s", r.Entry, r.Error.Kind, int(r.Stats.States), r.Stats.TimeS, timingNote(r.Timing))
		if r.ReplayOK != nil && *r.ReplayOK {
			s += ", replay ok"
		}
		if r.TraceFile != "" {
			s += "; gmc replay " + r.TraceFile
		}
		return s + harmfulNote(r.Error)
	case r.Verdict == guide.VerdictNoError:
		return fmt.Sprintf("%s: %s, %.2fs", r.Entry, noErrorText(r.Bound, int(r.Stats.States)), r.Stats.TimeS)
	case r.Verdict == guide.VerdictSkip:
		return fmt.Sprintf("%s: %s", r.Entry, skipText(&r.Report, r.Stats.TimeS))
	}
	return fmt.Sprintf("%s: no error found within the bounds (%d states, %.2fs)", r.Entry, int(r.Stats.States), r.Stats.TimeS)
}

func summarize(rs []entryReport) multiSummary {
	s := multiSummary{Entries: len(rs), Kinds: map[string]int{}}
	var times []float64
	for _, r := range rs {
		switch {
		case r.Problem != "":
			s.NotChecked++
			continue
		case r.Error != nil:
			s.Errors++
			s.Kinds[r.Error.Kind]++
			if r.ReplayOK != nil && *r.ReplayOK {
				s.ReplayOK++
			}
		case r.Verdict == guide.VerdictNoError:
			s.NoError++
		case r.Verdict == guide.VerdictSkip:
			s.Skipped++
		default:
			s.Unknown++
		}
		s.TimeS += r.Stats.TimeS
		times = append(times, r.Stats.TimeS)
	}
	if len(times) > 0 {
		sort.Float64s(times)
		n := len(times)
		s.MedianTimeS = times[n/2]
		if n%2 == 0 {
			s.MedianTimeS = (times[n/2-1] + times[n/2]) / 2
		}
	}
	return s
}

// printTable prints the per-entry table and the summary line.
func printTable(w io.Writer, rs []entryReport, s multiSummary) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "\nENTRY\tRESULT\tKIND\tSTATES\tTIME\tREPLAY")
	for _, r := range rs {
		result, kind, replay := r.Verdict, "-", "-"
		if r.Problem != "" {
			result = "not checked"
		}
		if r.Error != nil {
			result, kind = "found", r.Error.Kind
		}
		if r.ReplayOK != nil {
			replay = map[bool]string{true: "ok", false: "FAILED"}[*r.ReplayOK]
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%.2fs\t%s\n", r.Entry, result, kind, int(r.Stats.States), r.Stats.TimeS, replay)
	}
	tw.Flush()
	var kinds []string
	for _, k := range slices.Sorted(maps.Keys(s.Kinds)) {
		kinds = append(kinds, fmt.Sprintf("%s %d", k, s.Kinds[k]))
	}
	found := fmt.Sprintf("%d with an error", s.Errors)
	if len(kinds) > 0 {
		found += " (" + strings.Join(kinds, ", ") + ")"
	}
	fmt.Fprintf(w, "\n%d entries: %s, %d replayed; %d no error, %d skipped, %d unknown, %d not checked; total %.2fs, median %.2fs\n",
		s.Entries, found, s.ReplayOK, s.NoError, s.Skipped, s.Unknown, s.NotChecked, s.TimeS, s.MedianTimeS)
}
