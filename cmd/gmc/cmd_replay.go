package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/gmc-go/gmc/vm"
	"github.com/gmc-go/gmc/vm/trace"
	"github.com/gmc-go/gmc/vm/trace/timeline"
	"github.com/gmc-go/gmc/vm/trace/timeline/gantt"
)

func init() { commands["replay"] = runReplay }

// runReplay implements `gmc replay TRACE.json`: it re-executes the recorded
// choices and reports whether the recorded error is reproduced (exit 1) or
// not (exit 0).
func runReplay(args []string) int {
	fs := flag.NewFlagSet("replay", flag.ContinueOnError)
	var f runFlags
	f.register(fs)
	steps := fs.Bool("steps", false, "print the interleaving")
	timelinePath := fs.String("timeline", "", "write the run as a Chrome/Perfetto trace-event timeline (JSON) to this file")
	timelinePNG := fs.String("timeline-png", "", "draw the run's timeline as a Gantt chart (PNG) to this file")
	pos, _, err := parseInterleaved(fs, args)
	if err != nil {
		return exitUsage
	}
	if len(pos) != 1 {
		return usageErr("replay takes one trace file")
	}
	data, err := os.ReadFile(pos[0])
	if err != nil {
		return usageErr("%v", err)
	}
	var tf traceFile
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber() // inputs keep every bit of 64-bit integers
	if err := dec.Decode(&tf); err != nil || tf.Trace == nil {
		return usageErr("%s: not a gmc trace file", pos[0])
	}
	tr := tf.Trace
	f.pkg, f.entry, f.progArgs, f.seed = tr.Pkg, tr.Entry, tr.Args, tr.Seed
	f.breakpoints = tr.Breakpoints
	f.unreachable = tr.Unreachable
	f.raceAt = tr.RaceAt
	f.reducedFor = tr.ReducedFor
	f.inputs = tr.Inputs
	f.osInputs = tr.OS
	// the time model the trace ran under (a trace without "timing":
	// timer choices and step time as recorded, else the default)
	f.timing = tr.Timing
	if tr.TimerChoice {
		f.timing = vm.TimingAny
	}
	f.grace = tr.EntryGrace
	f.timerChoiceDepth = tr.TimerChoiceDepth
	f.stepTime = time.Duration(tr.StepTime)
	if tr.Sched != "" {
		f.sched = tr.Sched
	}
	f.checks = strings.Join(tr.Checks, ",")
	if f.checks == "" {
		f.checks = "none"
	}
	start := time.Now()
	l, code := loadAndPrepare(tr.Dir, tr.Pkg, &f)
	if l == nil {
		return code
	}
	st := &streamer{stdout: os.Stdout, stderr: os.Stderr}
	if f.json {
		st.stdout = os.Stderr
	}
	obs := st.flush
	var tl *timeline.Builder
	if *timelinePath != "" || *timelinePNG != "" {
		o := l.m.Options()
		o.RecordSync = true
		l.m = vm.New(l.prog, o)
		tl = timeline.NewBuilder(l.m, fmt.Sprintf("gmc replay: %s", tr.Entry))
		tl.SetInfo("pkg", tr.Pkg)
		tl.SetInfo("entry", tr.Entry)
		obs = func(s *vm.State) { st.flush(s); tl.Observe(s) }
	}
	final, got, err := trace.Replay(l.m, l.entry, tr.Choices, obs)
	st.flush(final)
	if tl != nil {
		tl.Finish(final, final.Err())
		if *timelinePath != "" {
			if err := writeFileWith(*timelinePath, tl.Write); err != nil {
				fmt.Fprintf(os.Stderr, "gmc: %v\n", err)
				return exitInternal
			}
		}
		if *timelinePNG != "" {
			if err := writeFileWith(*timelinePNG, func(w io.Writer) error { return gantt.WritePNG(tl.File(), gantt.Options{From: -1}, w) }); err != nil {
				fmt.Fprintf(os.Stderr, "gmc: %v\n", err)
				return exitInternal
			}
		}
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "gmc: %s: %v\n", pos[0], err)
		return exitOK
	}
	if *steps {
		printSteps(os.Stderr, got)
	}
	f.out = ""
	if tf.Error != nil && tf.Error.Kind == "assert" && strings.HasPrefix(tf.Error.Message, "target reached") {
		// a reached target is not an error state: reproduced if the final
		// state matches the recorded position
		if final.Err() == nil && l.m.Position(final.LastStep().Loc) == tf.Error.Pos {
			fmt.Fprintf(os.Stderr, "gmc: reproduced: %s\n", tf.Error.Message)
			return exitFound
		}
		fmt.Fprintf(os.Stderr, "gmc: the recorded %s was not reproduced\n", tf.Error.Message)
		return exitOK
	}
	rc := finishRun(&f, l, final, tr.Choices, got, start, os.Stdout, os.Stderr)
	if tf.Error != nil {
		e := final.Err()
		if e == nil || string(e.Kind) != tf.Error.Kind || e.Msg != tf.Error.Message {
			fmt.Fprintf(os.Stderr, "gmc: the recorded %s was not reproduced\n", tf.Error.Kind)
			return exitOK
		}
		if !f.json {
			fmt.Fprintf(os.Stderr, "gmc: reproduced: %s\n", tf.Error.Kind)
		}
		return exitFound
	}
	return rc
}
