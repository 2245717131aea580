package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"

	"github.com/gmc-go/gmc/vm/trace"
)

// timingCase is a test of testdata/timing with the outcome its comment
// states: `// TestX: no error` or `// TestX: assert "message"`.
type timingCase struct {
	entry string
	want  string // the assert message; "" for no error
}

func timingCases(t *testing.T) []timingCase {
	t.Helper()
	src, err := os.ReadFile(filepath.Join("testdata", "timing", "timing_test.go"))
	if err != nil {
		t.Fatal(err)
	}
	re := regexp.MustCompile(`(?m)^// (Test\w+): (no error|assert "([^"]+)")`)
	var cs []timingCase
	for _, m := range re.FindAllStringSubmatch(string(src), -1) {
		cs = append(cs, timingCase{entry: m[1], want: m[3]})
	}
	if len(cs) < 5 {
		t.Fatalf("testdata/timing: %d cases with an expected outcome", len(cs))
	}
	return cs
}

// TestTimingModel: by default time is virtual as testing/synctest runs it
// (vm/time.go). Tests that pass under `go test -race` get no error (a
// one-second watchdog, a one-minute context whose child is cancelled, a
// loop that polls once per iteration while it works), from the default
// check and from the exhaustive search; tests that block or spin until a
// timer fires reach the code after it (their t.Fatal), and the trace
// records the time model and replays.
func TestTimingModel(t *testing.T) {
	var quiet, found []string
	want := map[string]string{}
	for _, c := range timingCases(t) {
		if c.want == "" {
			quiet = append(quiet, c.entry)
		} else {
			found, want[c.entry] = append(found, c.entry), c.want
		}
	}
	dir := t.TempDir()
	stdout, stderr, code := gmc(t, "check", "--json", "--time-limit", "20s", "--entry", "^("+strings.Join(found, "|")+")$", "--out", dir, "./testdata/timing")
	var frep multiReport
	if err := json.Unmarshal([]byte(stdout), &frep); err != nil || code != 1 || len(frep.Results) != len(found) {
		t.Fatalf("exit %d, %v, %d results, want %d errors:\n%s", code, err, len(frep.Results), len(found), stderr)
	}
	for _, r := range frep.Results {
		if r.Error == nil {
			t.Errorf("%s: verdict %s, want assert %q", r.Entry, r.Verdict, want[r.Entry])
			continue
		}
		if r.Error.Kind != "assert" || !strings.Contains(r.Error.Message, want[r.Entry]) || r.Timing != "synctest" || r.Trace.Timing != "synctest" {
			t.Errorf("%s: %s %q (timing %q, trace %q), want assert %q under synctest", r.Entry, r.Error.Kind, r.Error.Message, r.Timing, r.Trace.Timing, want[r.Entry])
		}
		if _, rstderr, rcode := gmc(t, "replay", r.TraceFile); rcode != 1 || !strings.Contains(rstderr, "reproduced: assert") {
			t.Errorf("%s: replay exit %d:\n%s", r.Entry, rcode, rstderr)
		}
	}
	pattern := "^(" + strings.Join(quiet, "|") + ")$"
	for _, strategy := range []string{"guided", "exhaustive"} {
		stdout, stderr, code := gmc(t, "check", "--json", "--strategy", strategy, "--time-limit", "1s", "--entry", pattern, "./testdata/timing")
		var rep multiReport
		if err := json.Unmarshal([]byte(stdout), &rep); err != nil || code != 0 || len(rep.Results) != len(quiet) {
			t.Fatalf("%s: exit %d, %v, %d results, want %d without error:\n%s", strategy, code, err, len(rep.Results), len(quiet), stderr)
		}
		for _, r := range rep.Results {
			if r.Error != nil || r.Problem != "" || strategy == "exhaustive" && r.Verdict != "no-error" {
				t.Errorf("%s: %s: verdict %s, problem %q, error %+v", strategy, r.Entry, r.Verdict, r.Problem, r.Error)
			}
		}
	}
}

// TestTimingAny: --timing any lets any timer fire at any scheduling point:
// the one-second watchdog fires before the goroutine closes its channel.
// The finding says so ("timing": "any" in the verdict and the trace) and
// replays under the same model, also from a trace that records it only
// as timer_choice (written before "timing" existed).
func TestTimingAny(t *testing.T) {
	out := filepath.Join(t.TempDir(), "any.json")
	stdout, stderr, code := gmc(t, "check", "--json", "--timing", "any", "--time-limit", "20s", "--entry", "TestWatchdog", "--out", out, "./testdata/timing")
	var rep trace.Report
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil || code != 1 || rep.Error == nil {
		t.Fatalf("exit %d, %v, want the watchdog found:\n%s", code, err, stderr)
	}
	if !strings.Contains(rep.Error.Message, "hangs") || rep.Timing != "any" || rep.Trace.Timing != "any" || !rep.Trace.TimerChoice {
		t.Errorf("%q (timing %q, trace %q, timer_choice %v), want hangs under timing any", rep.Error.Message, rep.Timing, rep.Trace.Timing, rep.Trace.TimerChoice)
	}
	if _, rstderr, rcode := gmc(t, "replay", out); rcode != 1 || !strings.Contains(rstderr, "reproduced: assert") {
		t.Errorf("replay exit %d:\n%s", rcode, rstderr)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	legacy := filepath.Join(t.TempDir(), "legacy.json")
	if err := os.WriteFile(legacy, []byte(strings.Replace(string(data), `"timing":"any",`, "", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, rstderr, rcode := gmc(t, "replay", legacy); rcode != 1 || !strings.Contains(rstderr, "reproduced: assert") {
		t.Errorf("replay of the trace without \"timing\": exit %d:\n%s", rcode, rstderr)
	}
	if _, stderr, code := gmc(t, "check", "--timing", "sometimes", "--entry", "TestWatchdog", "./testdata/timing"); code != 2 || !strings.Contains(stderr, "unknown --timing") {
		t.Errorf("--timing sometimes: exit %d:\n%s", code, stderr)
	}
}

// TestCheckRealTime: GoKer's Grpc3017 leaks only if a 1 ns timer fires
// inside a busy loop; the default check finds it with the fallback's
// Go-like walk, in real time (every transition takes 1µs, timers fire when
// due and never before), and its trace records the model and replays.
func TestCheckRealTime(t *testing.T) {
	goker := filepath.Join(runtime.GOROOT(), "src", "runtime", "testdata", "testgoroutineleakprofile", "goker")
	if _, err := os.Stat(goker); err != nil {
		t.Skip("no GoKer kernels in this GOROOT")
	}
	out := filepath.Join(t.TempDir(), "t.json")
	_, stderr, code := gmc(t, "check", "--entry", "Grpc3017", "--time-limit", "2m", "--out", out, goker)
	if code != 1 || !strings.Contains(stderr, "leak found") {
		t.Fatalf("check exit %d, want 1 (leak found):\n%s", code, stderr)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), `"timing":"step"`) || !strings.Contains(string(data), `"step_time_ns":1000`) || strings.Contains(string(data), `"timer_choice"`) {
		t.Errorf("the trace does not record real time (and only it)")
	}
	_, rstderr, rcode := gmc(t, "replay", out)
	if rcode != 1 || !strings.Contains(rstderr, "gmc: reproduced") {
		t.Errorf("replay exit %d, want 1 and reproduced:\n%s", rcode, rstderr)
	}
}
