package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

var gmcBin string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "gmc-test")
	if err != nil {
		panic(err)
	}
	gmcBin = filepath.Join(dir, "gmc")
	if out, err := exec.Command("go", "build", "-o", gmcBin, ".").CombinedOutput(); err != nil {
		panic(string(out))
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

func gmc(t *testing.T, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	cmd := exec.Command(gmcBin, args...)
	var o, e bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &e
	err := cmd.Run()
	code = 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return o.String(), e.String(), code
}

// TestBadInput: a package that does not compile, a missing entry, an
// unsupported feature and a bad target give one line naming file:line (or
// the entry) and exit 2.
func TestBadInput(t *testing.T) {
	cases := []struct {
		name string
		args []string
		want []string
	}{
		{"does not compile", []string{"run", "./testdata/broken"}, []string{"main.go:4", "undefined: undefinedName"}},
		{"missing entry", []string{"run", "--entry", "TestNope", "./testdata/simple"}, []string{"has no function TestNope"}},
		{"unsupported", []string{"run", "./testdata/unsupported"}, []string{"unsupported: OS boundary: call of syscall.Pipe2", "in os.Pipe at main.go:7"}},
		{"target without statement", []string{"check", "--target", "main.go:1", "./testdata/simple"}, []string{"main.go:1"}},
		{"unknown strategy", []string{"check", "--strategy", "magic", "./testdata/simple"}, []string{"unknown --strategy"}},
		{"no package", []string{"run"}, []string{"one package"}},
		{"unknown monitor", []string{"check", "--monitor", "lockgraph,nope", "./testdata/simple"}, []string{`unknown monitor "nope"`}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, stderr, code := gmc(t, c.args...)
			if code != 2 {
				t.Errorf("exit %d, want 2; stderr:\n%s", code, stderr)
			}
			lines := strings.Split(strings.TrimSpace(stderr), "\n")
			if len(lines) != 1 {
				t.Errorf("want one line, got %d:\n%s", len(lines), stderr)
			}
			for _, w := range c.want {
				if !strings.Contains(stderr, w) {
					t.Errorf("stderr %q lacks %q", stderr, w)
				}
			}
		})
	}
}

// TestCheckReplay: gmc check finds the bug, the counterexample replays to
// the same error, and the JSON report follows the contract.
func TestCheckReplay(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "trace.json")
	for _, strategy := range []string{"guided", "dfs", "exhaustive"} {
		stdout, stderr, code := gmc(t, "check", "--json", "--strategy", strategy, "--out", out, "./testdata/simple")
		if code != 1 {
			t.Fatalf("%s: exit %d, want 1\n%s", strategy, code, stderr)
		}
		var rep struct {
			Verdict string
			Error   struct{ Kind, Message, Pos string }
			Trace   struct{ Choices []int }
			Stats   struct {
				States   float64
				TraceLen float64 `json:"trace_len"`
			}
		}
		if err := json.Unmarshal([]byte(stdout), &rep); err != nil {
			t.Fatalf("%s: stdout is not one JSON object: %v\n%s", strategy, err, stdout)
		}
		if rep.Verdict != "error" || rep.Error.Kind != "panic" || !strings.Contains(rep.Error.Message, "config not ready") {
			t.Errorf("%s: report %+v", strategy, rep)
		}
		if int(rep.Stats.TraceLen) != len(rep.Trace.Choices) || rep.Stats.States <= 0 {
			t.Errorf("%s: stats %+v with %d choices", strategy, rep.Stats, len(rep.Trace.Choices))
		}
		_, stderr, code = gmc(t, "replay", out)
		if code != 1 || !strings.Contains(stderr, "reproduced: panic") {
			t.Errorf("%s: replay exit %d\n%s", strategy, code, stderr)
		}
	}
}

// TestExhaustiveNoError: exhaustive search proves the fixed twin correct.
func TestExhaustiveNoError(t *testing.T) {
	stdout, stderr, code := gmc(t, "check", "--json", "--strategy", "exhaustive", "../../benchmarks/deadlock_fixed")
	if code != 0 || !strings.Contains(stdout, `"verdict":"no-error"`) {
		t.Errorf("exit %d\n%s\n%s", code, stdout, stderr)
	}
}

// TestRunDeterminism: the same seed gives byte-identical JSON except times.
func TestRunDeterminism(t *testing.T) {
	norm := func(s string) string {
		var m map[string]any
		json.Unmarshal([]byte(s), &m)
		st := m["stats"].(map[string]any)
		delete(st, "time_s")
		delete(st, "peak_mem_bytes")
		b, _ := json.Marshal(m)
		return string(b)
	}
	a, _, _ := gmc(t, "run", "--json", "--seed", "5", "./testdata/simple")
	b, _, _ := gmc(t, "run", "--json", "--seed", "5", "./testdata/simple")
	if norm(a) != norm(b) || a == "" {
		t.Errorf("runs differ:\n%s\n%s", a, b)
	}
}

// TestCheckFuzzInputs: gmc check explores a fuzz target's inputs
// symbolically, records concrete inputs that reach the error, and gmc
// replay runs them concretely; --no-refine is accepted.
func TestCheckFuzzInputs(t *testing.T) {
	out := filepath.Join(t.TempDir(), "trace.json")
	for _, flags := range [][]string{nil, {"--no-refine"}} {
		args := append([]string{"check", "--json", "--entry", "FuzzElem", "--out", out}, flags...)
		stdout, stderr, code := gmc(t, append(args, "../../benchmarks/elem")...)
		if code != 1 {
			t.Fatalf("%v: exit %d, want 1\n%s", flags, code, stderr)
		}
		var rep struct {
			Error struct{ Kind string }
			Trace struct {
				Choices []int
				Inputs  map[string]float64
			}
			Stats struct {
				TraceLen    float64 `json:"trace_len"`
				SolverCalls float64 `json:"solver_calls"`
			}
		}
		if err := json.Unmarshal([]byte(stdout), &rep); err != nil {
			t.Fatalf("%v: %v\n%s", flags, err, stdout)
		}
		if rep.Error.Kind != "panic" || rep.Trace.Inputs["x"] <= 18 || rep.Stats.SolverCalls == 0 || int(rep.Stats.TraceLen) != len(rep.Trace.Choices) {
			t.Errorf("%v: report %+v", flags, rep)
		}
		_, stderr, code = gmc(t, "replay", out)
		if code != 1 || !strings.Contains(stderr, "reproduced: panic") {
			t.Errorf("%v: replay exit %d\n%s", flags, code, stderr)
		}
	}
}

// TestRunRealTime: `gmc run` runs a GoKer kernel as the Go project's test
// does (real time, a sticky scheduler, the process ending soon after the
// kernel returns): Kubernetes58107 (a thousand controllers signalling
// 100,000 times while main sleeps a second) ends, and Grpc3017 (a 1ns
// AfterFunc inside a busy loop) leaks; both traces record the options and
// replay to the same outcome.
func TestRunRealTime(t *testing.T) {
	goker := filepath.Join(runtime.GOROOT(), "src", "runtime", "testdata", "testgoroutineleakprofile", "goker")
	if _, err := os.Stat(goker); err != nil {
		t.Skip("no GoKer kernels in this GOROOT")
	}
	for _, c := range []struct {
		entry string
		code  int
		want  string
	}{
		{"Kubernetes58107", 0, ""},
		{"Grpc3017", 1, "goroutine leak"},
	} {
		out := filepath.Join(t.TempDir(), c.entry+".json")
		_, stderr, code := gmc(t, "run", "--entry", c.entry, "--stay", "0.9", "--step-time", "10us", "--grace", "10000", "--depth", "1000000", "--out", out, goker)
		if code != c.code || !strings.Contains(stderr, c.want) {
			t.Fatalf("%s: run exit %d, want %d and %q:\n%s", c.entry, code, c.code, c.want, stderr)
		}
		data, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(data), `"step_time_ns":10000`) || !strings.Contains(string(data), `"entry_grace":10000`) {
			t.Errorf("%s: the trace does not record the real-time options", c.entry)
		}
		_, rstderr, rcode := gmc(t, "replay", out)
		if rcode != c.code || !strings.Contains(rstderr, c.want) {
			t.Errorf("%s: replay exit %d, want %d and %q:\n%s", c.entry, rcode, c.code, c.want, rstderr)
		}
	}
}

// TestSingleTestNotChecked: a package whose only test stops at the OS
// boundary reports it "not checked", as a check of several entries does:
// the reason on stderr, with --json the entry's object (its problem) on
// stdout, exit 2.
func TestSingleTestNotChecked(t *testing.T) {
	_, stderr, code := gmc(t, "check", "--time-limit", "5s", "./testdata/unsupportedtest")
	if code != 2 || !strings.Contains(stderr, "TestPipe: not checked: unsupported: OS boundary: call of syscall.Pipe2") {
		t.Errorf("exit %d, stderr %q", code, stderr)
	}
	stdout, _, code := gmc(t, "check", "--json", "--time-limit", "5s", "./testdata/unsupportedtest")
	var r struct {
		Entry, Verdict, Problem string
	}
	if err := json.Unmarshal([]byte(stdout), &r); err != nil || code != 2 {
		t.Fatalf("exit %d, stdout %q: %v", code, stdout, err)
	}
	if r.Entry != "TestPipe" || r.Verdict != "unknown" || !strings.Contains(r.Problem, "OS boundary: call of syscall.Pipe2") {
		t.Errorf("JSON %+v", r)
	}
}
