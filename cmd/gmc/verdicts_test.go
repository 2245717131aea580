package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestVerdicts checks the verdicts of the default check on small tests: a
// sequential test, a two-goroutine spin lock and a close that wakes a
// parked receiver (no race) are exhausted, a larger
// spin lock gets a no-error that states its preemption bound, and a lost
// update is found and its counterexample replays.
func TestVerdicts(t *testing.T) {
	type report struct {
		Verdict string `json:"verdict"`
		Bound   *struct {
			Exhausted   bool `json:"exhausted"`
			Preemptions *int `json:"preemptions"`
		} `json:"bound"`
	}
	check := func(entry, limit string, extra ...string) (report, string, int) {
		args := append([]string{"check", "--json", "--entry", entry, "--time-limit", limit}, extra...)
		out, errOut, code := gmc(t, append(args, "./testdata/verdicts")...)
		var r report
		if err := json.Unmarshal([]byte(out), &r); err != nil {
			t.Fatalf("%s: bad JSON %q: %v (stderr %s)", entry, out, err, errOut)
		}
		return r, errOut, code
	}
	for _, e := range []string{"TestSeq", "TestSpin", "TestCloseWake"} {
		r, _, code := check(e, "20s")
		if r.Verdict != "no-error" || r.Bound == nil || !r.Bound.Exhausted || code != 0 {
			t.Errorf("%s: verdict %s, bound %+v, exit %d; want no-error exhausted, exit 0", e, r.Verdict, r.Bound, code)
		}
	}
	r, _, _ := check("TestSpinMany", "1s")
	if r.Verdict != "no-error" || r.Bound == nil || r.Bound.Exhausted || r.Bound.Preemptions == nil {
		t.Errorf("TestSpinMany: verdict %s, bound %+v; want no-error up to some preemptions", r.Verdict, r.Bound)
	}
	_, errOut, _ := gmc(t, "check", "--entry", "TestSpinMany", "--time-limit", "1s", "./testdata/verdicts")
	if !strings.Contains(errOut, "no error up to ") || !strings.Contains(errOut, " preemption") {
		t.Errorf("TestSpinMany: the summary does not state the bound:\n%s", errOut)
	}
	tf := filepath.Join(t.TempDir(), "lost.json")
	r, _, code := check("TestLostUpdate", "20s", "--out", tf)
	if r.Verdict != "error" || code != 1 {
		t.Fatalf("TestLostUpdate: verdict %s, exit %d; want error, exit 1", r.Verdict, code)
	}
	if _, err := os.Stat(tf); err != nil {
		t.Fatal(err)
	}
	if _, errOut, code := gmc(t, "replay", tf); code != 1 || !strings.Contains(errOut, "reproduced") {
		t.Errorf("TestLostUpdate: replay exit %d, want 1:\n%s", code, errOut)
	}
}

// TestCheckEveryTest checks that gmc check without --entry checks every
// test of the package, and that --run selects as --entry does.
func TestCheckEveryTest(t *testing.T) {
	_, errOut, code := gmc(t, "check", "--time-limit", "1s", "./testdata/verdicts")
	for _, e := range []string{"TestCloseWake", "TestLostUpdate", "TestSeq", "TestSpin", "TestSpinMany"} {
		if !strings.Contains(errOut, "] "+e+": ") {
			t.Errorf("%s not checked:\n%s", e, errOut)
		}
	}
	if code != 1 {
		t.Errorf("exit %d, want 1 (TestLostUpdate fails)", code)
	}
	_, errOut, code = gmc(t, "check", "--run", "TestSe", "--time-limit", "1s", "./testdata/verdicts")
	if code != 0 || !strings.Contains(errOut, "TestSeq: no error (exhausted") {
		t.Errorf("--run TestSe: exit %d:\n%s", code, errOut)
	}
}

// TestCheckPattern checks that a ./... pattern checks every package with
// tests (go list ignores testdata below a ./..., so the pattern starts
// inside it).
func TestCheckPattern(t *testing.T) {
	_, errOut, code := gmc(t, "check", "--run", "TestSeq", "--time-limit", "2s", "./testdata/verdicts/...")
	for _, want := range []string{"no error (exhausted", "package ", "testdata/verdicts"} {
		if !strings.Contains(errOut, want) {
			t.Errorf("missing %q:\n%s", want, errOut)
		}
	}
	if code != 0 {
		t.Errorf("exit %d, want 0:\n%s", code, errOut)
	}
	// several packages, as go test takes them
	_, errOut, code = gmc(t, "check", "--run", "TestSum|TestHandoff", "--time-limit", "5s", "./testdata/stream/counter", "./testdata/stream/queue")
	for _, want := range []string{"TestSum: no error", "TestHandoff: no error", "stream/counter\n", "stream/queue\n"} {
		if !strings.Contains(errOut, want) {
			t.Errorf("two packages: missing %q:\n%s", want, errOut)
		}
	}
	if code != 0 {
		t.Errorf("two packages: exit %d, want 0:\n%s", code, errOut)
	}
}

// TestWithPackage: the package patterns of a command line give way to one
// package, found from the end so that a flag's value that reads as a
// pattern stays.
func TestWithPackage(t *testing.T) {
	got := withPackage([]string{"--run", ".", "--time-limit", "1s", ".", "./b", "--", "."}, []string{".", "./b"}, "/x/a")
	want := []string{"--run", ".", "--time-limit", "1s", "/x/a", "--", "."}
	if !slices.Equal(got, want) {
		t.Errorf("withPackage = %q, want %q", got, want)
	}
}

// TestJSONStream checks gmc check --json-stream over a pattern of two
// packages: one JSON object per line in go test -json's shape, a start
// and an end per package, and for every test a run, an output and the
// verdict (pass for no error, fail for an error), with the report.
func TestJSONStream(t *testing.T) {
	out, errOut, code := gmc(t, "check", "--json-stream", "--time-limit", "10s", "./testdata/stream/...")
	if code != 1 {
		t.Errorf("exit %d, want 1 (TestLost fails):\n%s", code, errOut)
	}
	type event struct {
		Action, Package, Test, Output, Verdict string
		Elapsed                                *float64
		Report                                 *struct {
			Entry   string `json:"entry"`
			Verdict string `json:"verdict"`
			Bound   *struct {
				Exhausted bool `json:"exhausted"`
			} `json:"bound"`
		}
		Summary *struct {
			Entries int `json:"entries"`
			Errors  int `json:"errors"`
		}
	}
	want := map[string]string{ // test → final action
		"counter.TestSum": "pass", "counter.TestLost": "fail", "queue.TestHandoff": "pass",
	}
	got := map[string][]string{} // test (or package) → its actions in order
	var pkgs []string
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		var e event
		if err := json.Unmarshal([]byte(line), &e); err != nil {
			t.Fatalf("bad event %q: %v", line, err)
		}
		pkg := e.Package[strings.LastIndex(e.Package, "/")+1:]
		key := pkg
		if e.Test != "" {
			key += "." + e.Test
		} else if e.Action == "start" {
			pkgs = append(pkgs, pkg)
		}
		got[key] = append(got[key], e.Action)
		switch e.Action {
		case "pass", "fail":
			if e.Elapsed == nil {
				t.Errorf("%s: %s without Elapsed", key, e.Action)
			}
			if e.Test == "" {
				if e.Summary == nil {
					t.Errorf("%s: package end without a summary", key)
				}
				continue
			}
			if e.Report == nil || e.Report.Entry != e.Test || e.Report.Verdict != e.Verdict {
				t.Errorf("%s: report %+v does not match the verdict %q", key, e.Report, e.Verdict)
			}
			if e.Action == "pass" && (e.Verdict != "no-error" || e.Report == nil || e.Report.Bound == nil || !e.Report.Bound.Exhausted) {
				t.Errorf("%s: pass with verdict %q, want no-error exhausted", key, e.Verdict)
			}
			if e.Action == "fail" && e.Verdict != "error" {
				t.Errorf("%s: fail with verdict %q", key, e.Verdict)
			}
		case "output":
			if !strings.HasPrefix(e.Output, e.Test+": ") {
				t.Errorf("%s: output %q", key, e.Output)
			}
		}
	}
	if strings.Join(pkgs, ",") != "counter,queue" {
		t.Errorf("packages started: %v, want counter, queue", pkgs)
	}
	for test, action := range want {
		if a := strings.Join(got[test], ","); a != "run,output,"+action {
			t.Errorf("%s: actions %s, want run,output,%s", test, a, action)
		}
	}
	if a := strings.Join(got["counter"], ","); a != "start,fail" {
		t.Errorf("counter: package actions %s, want start,fail", a)
	}
	if a := strings.Join(got["queue"], ","); a != "start,pass" {
		t.Errorf("queue: package actions %s, want start,pass", a)
	}
}

// TestNoTestFiles: a package with no main function, tests, fuzz targets
// or examples is reported as go test reports it, "?   \tPKG\t[no test
// files]" with exit 0, in text, --json-stream (start, output, skip) and
// --json (no results).
func TestNoTestFiles(t *testing.T) {
	out, errOut, code := gmc(t, "check", "./testdata/notests")
	if code != 0 || !strings.HasPrefix(out, "?   \t") || !strings.HasSuffix(out, "/notests\t[no test files]\n") {
		t.Errorf("text: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	out, errOut, code = gmc(t, "check", "--json-stream", "./testdata/notests")
	var actions []string
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		var e event
		if err := json.Unmarshal([]byte(l), &e); err != nil {
			t.Fatalf("--json-stream: %v: %q", err, l)
		}
		actions = append(actions, e.Action)
		if e.Action == "output" && !strings.Contains(e.Output, "[no test files]") {
			t.Errorf("--json-stream output %q", e.Output)
		}
	}
	if code != 0 || !slices.Equal(actions, []string{"start", "output", "skip"}) {
		t.Errorf("--json-stream: exit %d, actions %q, stderr %q", code, actions, errOut)
	}
	out, _, code = gmc(t, "check", "--json", "./testdata/notests")
	var r multiReport
	if err := json.Unmarshal([]byte(out), &r); err != nil || code != 0 || r.Results == nil || len(r.Results) != 0 || r.Summary.Entries != 0 {
		t.Errorf("--json: exit %d, %v, %q", code, err, out)
	}
}
