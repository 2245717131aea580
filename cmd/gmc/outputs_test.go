package main

import (
	"encoding/json"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gmc-go/gmc/vm/trace/sarif/sariftest"
)

// validateSARIF checks a file against the SARIF 2.1.0 schema.
func validateSARIF(t *testing.T, path string) map[string]any {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := sariftest.Validate(data); err != nil {
		t.Errorf("%s %v", path, err)
	}
	var m map[string]any
	json.Unmarshal(data, &m)
	return m
}

// results returns the results of a SARIF log's only run.
func results(t *testing.T, log map[string]any) []map[string]any {
	t.Helper()
	runs, _ := log["runs"].([]any)
	if len(runs) != 1 {
		t.Fatalf("%d runs, want 1", len(runs))
	}
	var out []map[string]any
	for _, r := range runs[0].(map[string]any)["results"].([]any) {
		out = append(out, r.(map[string]any))
	}
	return out
}

// timelineTracks parses a timeline and returns its track names by
// goroutine id and the names of its flows.
func timelineTracks(t *testing.T, path string) (map[int]string, []string) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var f struct {
		TraceEvents []struct {
			Name, Ph string
			Tid      int
			Args     map[string]any
		}
	}
	if err := json.Unmarshal(data, &f); err != nil {
		t.Fatalf("%s is not JSON: %v", path, err)
	}
	tracks := map[int]string{}
	var flows []string
	for _, e := range f.TraceEvents {
		switch {
		case e.Ph == "M" && e.Name == "thread_name":
			tracks[e.Tid] = e.Args["name"].(string)
		case e.Ph == "s":
			flows = append(flows, e.Name)
		}
	}
	return tracks, flows
}

// TestCheckSarifTimeline: --sarif writes a schema-valid log with the
// panic, its location and the replay command; --timeline writes a track
// per goroutine; gmc replay --timeline writes the same tracks, and
// --timeline-png a PNG chart.
func TestCheckSarifTimeline(t *testing.T) {
	dir := t.TempDir()
	out, sarifPath, tl := filepath.Join(dir, "trace.json"), filepath.Join(dir, "log.sarif"), filepath.Join(dir, "tl.json")
	_, stderr, code := gmc(t, "check", "--out", out, "--sarif", sarifPath, "--timeline", tl, "./testdata/simple")
	if code != 1 {
		t.Fatalf("exit %d, want 1\n%s", code, stderr)
	}
	rs := results(t, validateSARIF(t, sarifPath))
	if len(rs) != 1 {
		t.Fatalf("%d results, want 1", len(rs))
	}
	r := rs[0]
	props := r["properties"].(map[string]any)
	loc := r["locations"].([]any)[0].(map[string]any)["physicalLocation"].(map[string]any)
	if r["ruleId"] != "panic" || props["replay"] != "gmc replay "+out || props["entry"] != "main" {
		t.Errorf("result %v", r)
	}
	if uri := loc["artifactLocation"].(map[string]any)["uri"]; uri != "testdata/simple/main.go" {
		t.Errorf("location uri %v, want testdata/simple/main.go", uri)
	}
	if line := loc["region"].(map[string]any)["startLine"]; line != float64(17) {
		t.Errorf("location line %v, want 17 (the panic)", line)
	}
	tracks, flows := timelineTracks(t, tl)
	if len(tracks) != 2 || !strings.HasPrefix(tracks[2], "goroutine 2 [main.main.func1]") {
		t.Errorf("tracks %v", tracks)
	}
	if !contains(flows, "go") {
		t.Errorf("no flow from the go statement: %v", flows)
	}
	tl2, chart := filepath.Join(dir, "tl2.json"), filepath.Join(dir, "tl.png")
	if _, stderr, code := gmc(t, "replay", "--timeline", tl2, "--timeline-png", chart, out); code != 1 {
		t.Fatalf("replay exit %d\n%s", code, stderr)
	}
	if fh, err := os.Open(chart); err != nil {
		t.Error(err)
	} else {
		if _, err := png.Decode(fh); err != nil {
			t.Errorf("--timeline-png: %v", err)
		}
		fh.Close()
	}
	if tracks2, _ := timelineTracks(t, tl2); len(tracks2) != len(tracks) || tracks2[2] != tracks[2] {
		t.Errorf("replay tracks %v, check tracks %v", tracks2, tracks)
	}
}

// TestCheckMultiEntry: --entry all checks every test of a package: one
// result per entry in the JSON (the deadlock, leak and race found and
// replayed, the correct test proven, the test that calls an unsupported
// function not checked, with the reason), a trace file per error that gmc
// replay reproduces, a SARIF result per error, a timeline per error, and
// exit code 1; a pattern selects entries as go test -run does.
func TestCheckMultiEntry(t *testing.T) {
	dir := t.TempDir()
	outDir, tlDir, sarifPath := filepath.Join(dir, "traces"), filepath.Join(dir, "timelines"), filepath.Join(dir, "log.sarif")
	stdout, stderr, code := gmc(t, "check", "--entry", "all", "--strategy", "exhaustive", "--json",
		"--out", outDir, "--timeline", tlDir, "--sarif", sarifPath, "./testdata/multi")
	if code != 1 {
		t.Fatalf("exit %d, want 1\n%s", code, stderr)
	}
	var rep struct {
		Results []struct {
			Entry, Verdict string
			EntryKind      string `json:"entry_kind"`
			Error          *struct{ Kind string }
			ReplayOK       *bool  `json:"replay_ok"`
			TraceFile      string `json:"trace_file"`
			TimelineFile   string `json:"timeline_file"`
			Problem        string
		}
		Summary struct {
			Entries, Errors int
			NoError         int `json:"no_error"`
			ReplayOK        int `json:"replay_ok"`
			NotChecked      int `json:"not_checked"`
		}
	}
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil {
		t.Fatalf("stdout is not one JSON object: %v\n%s", err, stdout)
	}
	want := map[string]string{"TestDeadlock": "deadlock", "TestLeak": "leak", "TestRace": "race", "TestOK": "", "TestUnsupported": "unsupported"}
	if len(rep.Results) != len(want) || rep.Summary.Entries != 5 || rep.Summary.Errors != 3 || rep.Summary.ReplayOK != 3 ||
		rep.Summary.NoError != 1 || rep.Summary.NotChecked != 1 {
		t.Fatalf("report %+v", rep)
	}
	for _, r := range rep.Results {
		kind, ok := want[r.Entry]
		if !ok {
			t.Errorf("unexpected entry %s", r.Entry)
			continue
		}
		if r.EntryKind != "test" {
			t.Errorf("%s: entry kind %q", r.Entry, r.EntryKind)
		}
		if kind == "unsupported" {
			if !strings.Contains(r.Problem, "unsupported: OS boundary: call of syscall.Pipe2") || r.Error != nil {
				t.Errorf("%s: %+v, want the unsupported call as its problem", r.Entry, r)
			}
			continue
		}
		if kind == "" {
			if r.Verdict != "no-error" || r.Error != nil || r.TraceFile != "" {
				t.Errorf("%s: %+v, want no-error", r.Entry, r)
			}
			continue
		}
		if r.Error == nil || r.Error.Kind != kind || r.ReplayOK == nil || !*r.ReplayOK || r.TraceFile != filepath.Join(outDir, r.Entry+".json") {
			t.Errorf("%s: %+v, want a %s that replays", r.Entry, r, kind)
			continue
		}
		if _, stderr, code := gmc(t, "replay", r.TraceFile); code != 1 || !strings.Contains(stderr, "reproduced: "+kind) {
			t.Errorf("%s: replay exit %d\n%s", r.Entry, code, stderr)
		}
		if tracks, _ := timelineTracks(t, r.TimelineFile); len(tracks) < 2 {
			t.Errorf("%s: timeline tracks %v", r.Entry, tracks)
		}
	}
	rs := results(t, validateSARIF(t, sarifPath))
	if len(rs) != 3 {
		t.Errorf("%d SARIF results, want 3", len(rs))
	}
	for _, r := range rs {
		entry := r["properties"].(map[string]any)["entry"].(string)
		if r["ruleId"] != want[entry] {
			t.Errorf("SARIF result of %s has rule %v, want %s", entry, r["ruleId"], want[entry])
		}
	}
}

// TestCheckEntryPattern: a regular expression selects entries as go test
// -run does, and the table sums them up; an entry's exact name is a
// single-entry check.
func TestCheckEntryPattern(t *testing.T) {
	_, stderr, code := gmc(t, "check", "--entry", "^Test(OK|Race)$", "--strategy", "exhaustive", "./testdata/multi")
	if code != 1 || !strings.Contains(stderr, "2 entries: 1 with an error (race 1)") || strings.Contains(stderr, "TestLeak") {
		t.Errorf("pattern: exit %d\n%s", code, stderr)
	}
	_, stderr, code = gmc(t, "check", "--entry", "TestOK", "--strategy", "exhaustive", "./testdata/multi")
	if code != 0 || !strings.Contains(stderr, "no error (exhausted, ") {
		t.Errorf("single entry: exit %d\n%s", code, stderr)
	}
}

// TestCheckBadFlags: a pattern that matches no entry, a bad regular
// expression and an unknown check give one line and exit 2.
func TestCheckBadFlags(t *testing.T) {
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"--entry", "^Nope"}, `--entry "^Nope" matches none of the 5 entries`},
		{[]string{"--entry", "Test("}, "neither an entry nor a regular expression"},
		{[]string{"--check", "leak,bogus", "--entry", "TestOK"}, `unknown --check "bogus"`},
	}
	for _, c := range cases {
		_, stderr, code := gmc(t, append(append([]string{"check"}, c.args...), "./testdata/multi")...)
		if code != 2 || strings.Count(strings.TrimSpace(stderr), "\n") != 0 || !strings.Contains(stderr, c.want) {
			t.Errorf("%v: exit %d, stderr %q; want exit 2 and one line with %q", c.args, code, stderr, c.want)
		}
	}
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}
