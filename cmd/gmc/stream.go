package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/gmc-go/gmc/guide"
	"github.com/gmc-go/gmc/vm/load"
	"github.com/gmc-go/gmc/vm/trace"
)

// event is one line of gmc check --json-stream, in the shape of go test
// -json's events (cmd/test2json: Time, Action, Package, Test, Elapsed,
// Output), so that tools reading go test -json read it too. The actions:
// "start" (a package), "run" (an entry begins), "output" (its result line;
// before it, for a skip verdict, the test's log lines as go test prints
// them, "    skip_test.go:5: not on this machine"), then "pass" (no
// error), "fail" (an error found) or "skip" (the test skipped in every
// execution: Verdict "skip"; unknown; or not checked) with the entry's
// Verdict and Report; last the package's "pass" or "fail" with the
// Summary.
type event struct {
	Time    time.Time     `json:"Time"`
	Action  string        `json:"Action"`
	Package string        `json:"Package"`
	Test    string        `json:"Test,omitempty"`
	Elapsed *float64      `json:"Elapsed,omitempty"`
	Output  string        `json:"Output,omitempty"`
	Verdict string        `json:"Verdict,omitempty"`
	Report  *entryReport  `json:"Report,omitempty"`
	Summary *multiSummary `json:"Summary,omitempty"`
}

// eventStream writes events, one JSON object per line.
type eventStream struct {
	w     io.Writer
	pkg   string
	start time.Time
}

func newEventStream(w io.Writer, prog *load.Program) *eventStream {
	pkg := "package"
	if len(prog.Roots) > 0 {
		pkg = strings.TrimSuffix(prog.Roots[0].Pkg.Path(), "_test")
	}
	return &eventStream{w: w, pkg: pkg, start: time.Now()}
}

func (es *eventStream) emit(e event) {
	e.Time, e.Package = time.Now(), es.pkg
	b, err := json.Marshal(e)
	if err != nil {
		fmt.Fprintf(os.Stderr, "gmc: %v\n", err)
		return
	}
	es.w.Write(append(b, '\n'))
}

func (es *eventStream) begin() { es.emit(event{Action: "start"}) }

func (es *eventStream) run(name string) { es.emit(event{Action: "run", Test: name}) }

// result emits an entry's result line and its verdict event.
func (es *eventStream) result(r entryReport) {
	if r.Skip != nil {
		for _, l := range r.Skip.Log {
			es.emit(event{Action: "output", Test: r.Entry, Output: "    " + strings.ReplaceAll(l, "\n", "\n        ") + "\n"})
		}
	}
	es.emit(event{Action: "output", Test: r.Entry, Output: resultLine(r) + "\n"})
	action := "skip"
	switch {
	case r.Problem != "":
	case r.Verdict == trace.VerdictError:
		action = "fail"
	case r.Verdict == guide.VerdictNoError:
		action = "pass"
	}
	el := r.Stats.TimeS
	es.emit(event{Action: action, Test: r.Entry, Elapsed: &el, Verdict: r.Verdict, Report: &r})
}

// end emits the package's event: fail when an entry has an error.
func (es *eventStream) end(s multiSummary) {
	action := "pass"
	if s.Errors > 0 {
		action = "fail"
	}
	el := time.Since(es.start).Seconds()
	es.emit(event{Action: action, Elapsed: &el, Summary: &s})
}
