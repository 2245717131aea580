package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/gmc-go/gmc/vm/trace"
)

// TestSkipOutputs: a test that skips in every execution is "skip" in the
// table, the progress line and the summary, and its --json-stream events
// are go test -json's: its log line as go test prints it, then Action
// "skip" with Verdict "skip"; a test that skips in one schedule and fails
// in the other is an error (exit 1), one that skips in some schedules
// only is no-error; a skip alone exits 0 (testdata/skip).
func TestSkipOutputs(t *testing.T) {
	_, errOut, code := gmc(t, "check", "--time-limit", "10s", "./testdata/skip")
	for _, want := range []string{
		"TestSkipAlways: skipped (exhausted, 1 states), ",
		"s; skip_test.go:8: not on this machine\n",
		"TestFailOrSkip: assert found",
		"TestMixedSkip: no error (exhausted",
		"; 1 no error, 1 skipped, 0 unknown, 0 not checked;",
	} {
		if !strings.Contains(errOut, want) {
			t.Errorf("missing %q:\n%s", want, errOut)
		}
	}
	if !strings.Contains(errOut, "\nTestSkipAlways  skip ") {
		t.Errorf("the table's RESULT is not skip:\n%s", errOut)
	}
	if code != 1 {
		t.Errorf("exit %d, want 1 (TestFailOrSkip fails)", code)
	}
	if _, errOut, code := gmc(t, "check", "--run", "TestSkipAlways", "--time-limit", "10s", "./testdata/skip"); code != 0 ||
		!strings.Contains(errOut, "gmc: skipped (exhausted, 1 states)") {
		t.Errorf("--run TestSkipAlways: exit %d, want 0:\n%s", code, errOut)
	}
	// gmc run: one execution, which skipped
	if out, errOut, code := gmc(t, "run", "--json", "--entry", "TestSkipAlways", "./testdata/skip"); code != 0 ||
		!strings.Contains(out, `"verdict":"skip"`) || !strings.Contains(out, `"skip":{"log":["skip_test.go:8: not on this machine"]}`) {
		t.Errorf("gmc run: exit %d, want 0 and verdict skip:\n%s%s", code, out, errOut)
	}

	out, errOut, _ := gmc(t, "check", "--json-stream", "--time-limit", "10s", "./testdata/skip")
	type event struct {
		Action, Test, Output, Verdict string
		Report                        *entryReport
		Summary                       *multiSummary
	}
	actions := map[string][]string{}
	outputs := map[string][]string{}
	var skip *event
	var sum *multiSummary
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		var e event
		if err := json.Unmarshal([]byte(line), &e); err != nil {
			t.Fatalf("bad event %q: %v (stderr %s)", line, err, errOut)
		}
		actions[e.Test] = append(actions[e.Test], e.Action)
		if e.Action == "output" {
			outputs[e.Test] = append(outputs[e.Test], e.Output)
		}
		if e.Test == "TestSkipAlways" && e.Action == "skip" {
			skip = &e
		}
		if e.Test == "" && e.Summary != nil {
			sum = e.Summary
		}
	}
	if a := strings.Join(actions["TestSkipAlways"], ","); a != "run,output,output,skip" {
		t.Errorf("TestSkipAlways: actions %s, want run,output,output,skip", a)
	}
	if o := outputs["TestSkipAlways"]; len(o) != 2 || o[0] != "    skip_test.go:8: not on this machine\n" || !strings.HasPrefix(o[1], "TestSkipAlways: skipped") {
		t.Errorf("TestSkipAlways: outputs %q, want go test's log line then the result", o)
	}
	if skip == nil || skip.Verdict != trace.VerdictSkip || skip.Report == nil || skip.Report.Skip == nil ||
		strings.Join(skip.Report.Skip.Log, "|") != "skip_test.go:8: not on this machine" {
		t.Errorf("TestSkipAlways: skip event %+v", skip)
	}
	if a := strings.Join(actions["TestFailOrSkip"], ","); a != "run,output,fail" {
		t.Errorf("TestFailOrSkip: actions %s, want run,output,fail", a)
	}
	if a := strings.Join(actions["TestMixedSkip"], ","); a != "run,output,pass" {
		t.Errorf("TestMixedSkip: actions %s, want run,output,pass", a)
	}
	if sum == nil || sum.Skipped != 1 || sum.NoError != 1 || sum.Errors != 1 || sum.Entries != 3 {
		t.Errorf("summary %+v, want 3 entries: 1 skipped, 1 no error, 1 error", sum)
	}
}

// TestSkipText: the words of a skip verdict state its bound, or that the
// search that saw only skips was not exhausted, and the skip message.
func TestSkipText(t *testing.T) {
	k := 2
	log := &trace.SkipInfo{Log: []string{"a_test.go:3: first", "a_test.go:4: why\nmore"}}
	for _, c := range []struct {
		rep  trace.Report
		want string
	}{
		{trace.Report{Bound: &trace.Bound{Exhausted: true}, Skip: log, Stats: trace.Stats{States: 1}}, "skipped (exhausted, 1 states), 0.50s; a_test.go:4: why"},
		{trace.Report{Bound: &trace.Bound{Preemptions: &k}, Skip: log, Stats: trace.Stats{States: 1200}}, "skipped up to 2 preemptions (1,200 states), 0.50s; a_test.go:4: why"},
		{trace.Report{Skip: &trace.SkipInfo{Log: []string{}}, Stats: trace.Stats{States: 7}}, "skipped in every execution explored (7 states, not exhausted), 0.50s"},
	} {
		if got := skipText(&c.rep, 0.5); got != c.want {
			t.Errorf("skipText = %q, want %q", got, c.want)
		}
	}
}
