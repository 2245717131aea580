package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gmc-go/gmc/vm/trace/sarif/sariftest"
)

// TestConfirm checks one warning of each verdict of gmc confirm (see
// testdata/confirm): the JSON verdicts and bounds, the replay of each
// confirmed warning's trace, and the SARIF log (valid, with the verdict in
// each result's properties and a suppression on the infeasible one).
func TestConfirm(t *testing.T) {
	dir := t.TempDir()
	sf := filepath.Join(dir, "out.sarif")
	out, errOut, code := gmc(t, "confirm", "--json", "--time-limit", "1s", "--out", dir, "--sarif", sf, "./testdata/confirm")
	if code != 1 {
		t.Fatalf("exit %d, want 1 (confirmed warnings):\n%s", code, errOut)
	}
	var rep struct {
		Warnings []struct {
			Source, Check, Pos, Verdict, Trace string
			Entries                            []string
			Bound                              *struct{ Exhausted bool }
			Error                              *struct{ Kind string }
		}
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("bad JSON %q: %v", out, err)
	}
	got := map[string]string{}
	for _, w := range rep.Warnings {
		got[w.Source+" "+w.Check+" "+w.Pos] = w.Verdict
		switch w.Verdict {
		case "confirmed":
			if w.Trace == "" || w.Error == nil {
				t.Errorf("%s: confirmed without trace or error", w.Pos)
				continue
			}
			if _, errOut, code := gmc(t, "replay", w.Trace); code != 1 || !strings.Contains(errOut, "reproduced: "+w.Error.Kind) {
				t.Errorf("%s: replay exit %d, want 1 and %s reproduced:\n%s", w.Pos, code, w.Error.Kind, errOut)
			}
		case "infeasible":
			if w.Bound == nil || !w.Bound.Exhausted || len(w.Entries) != 1 || w.Entries[0] != "TestGated" {
				t.Errorf("%s: infeasible with bound %+v, entries %v; want exhausted in TestGated", w.Pos, w.Bound, w.Entries)
			}
		}
	}
	want := map[string]string{
		"gmc lockorder confirm_test.go:21:47":      "confirmed",
		"gmc lockorder confirm_test.go:33:9":       "infeasible",
		"gmc lockorder confirm_test.go:52:30":      "unreached",
		"comment unreachable confirm_test.go:76:3": "unknown",
		"vet waitgroup confirm_test.go:86:9":       "confirmed",
		"staticcheck SA2000 confirm_test.go:86:3":  "confirmed",
		"staticcheck SA2001 confirm_test.go:21:51": "confirmed", // an empty critical section is reached
		"staticcheck SA2001 confirm_test.go:52:34": "unreached",
		"staticcheck SA2003 confirm_test.go:99:2":  "confirmed", // the deferred Lock blocks at the test's exit
	}
	if len(rep.Warnings) != 13 {
		t.Errorf("%d warnings, want 13 (5 gmc/vet/comment, 8 staticcheck): %v", len(rep.Warnings), got)
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s: verdict %q, want %q (all: %v)", k, got[k], v, got)
		}
	}
	data, err := os.ReadFile(sf)
	if err != nil {
		t.Fatal(err)
	}
	if err := sariftest.Validate(data); err != nil {
		t.Fatalf("SARIF log: %v", err)
	}
	var log struct {
		Runs []struct {
			Results []struct {
				RuleID       string         `json:"ruleId"`
				Properties   map[string]any `json:"properties"`
				Suppressions []struct {
					Kind, Justification string
				} `json:"suppressions"`
			} `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(data, &log); err != nil || len(log.Runs) != 1 || len(log.Runs[0].Results) != len(rep.Warnings) {
		t.Fatalf("SARIF log: %v, %d runs, want one run with %d results", err, len(log.Runs), len(rep.Warnings))
	}
	for _, r := range log.Runs[0].Results {
		infeasible := r.Properties["verdict"] == "infeasible"
		if infeasible != (len(r.Suppressions) == 1) {
			t.Errorf("SARIF result %s (%v): suppressions %+v", r.RuleID, r.Properties["verdict"], r.Suppressions)
		}
		if infeasible && !strings.Contains(r.Suppressions[0].Justification, "exhausted") {
			t.Errorf("SARIF suppression does not state the bound: %q", r.Suppressions[0].Justification)
		}
	}
}

// TestUnreachableComment checks //gmc:unreachable in gmc check: the line
// one interleaving reaches is an error that replays, the line none
// reaches gives an exhausted no-error.
func TestUnreachableComment(t *testing.T) {
	tf := filepath.Join(t.TempDir(), "early.json")
	_, errOut, code := gmc(t, "check", "--entry", "TestEarly", "--time-limit", "10s", "--out", tf, "./testdata/unreachable")
	if code != 1 || !strings.Contains(errOut, "reached a location marked unreachable at unreachable_test.go:22:3") {
		t.Fatalf("TestEarly: exit %d, want 1 and the marked line reached:\n%s", code, errOut)
	}
	if _, errOut, code := gmc(t, "replay", tf); code != 1 || !strings.Contains(errOut, "reproduced: unreachable") {
		t.Errorf("TestEarly: replay exit %d:\n%s", code, errOut)
	}
	_, errOut, code = gmc(t, "check", "--entry", "TestNever", "--time-limit", "10s", "./testdata/unreachable")
	if code != 0 || !strings.Contains(errOut, "no error (exhausted") {
		t.Errorf("TestNever: exit %d, want 0 and an exhausted no-error:\n%s", code, errOut)
	}
}

// TestConfirmReduce checks the warning-specific reduction on
// testdata/reduce: the gated lock-order warning, in goroutines with a race
// on a counter nothing reads, is infeasible (exhausted) with the reduction
// and takes more states without it (the race voids the sync-only search,
// so the counter's and the statistics' accesses are scheduling points);
// the race-free gated one is infeasible, exhausted, either way, through
// the sync-only search; the ungated one is confirmed under the reduction
// and its trace (which records the reduction) replays.
func TestConfirmReduce(t *testing.T) {
	type verdict struct {
		Check, Pos, Verdict, Trace string
		States                     int
		Hidden                     int `json:"hidden_accesses"`
		Bound                      *struct{ Exhausted bool }
		Error                      *struct{ Kind string }
	}
	run := func(reduce string) map[string]verdict {
		dir := t.TempDir()
		out, errOut, code := gmc(t, "confirm", "--json", "--vet=false", "--staticcheck=false", "--reduce="+reduce,
			"--time-limit", "5s", "--out", dir, "./testdata/reduce")
		if code != 1 {
			t.Fatalf("--reduce=%s: exit %d, want 1:\n%s", reduce, code, errOut)
		}
		var rep struct{ Warnings []verdict }
		if err := json.Unmarshal([]byte(out), &rep); err != nil {
			t.Fatalf("bad JSON %q: %v", out, err)
		}
		got := map[string]verdict{}
		for _, w := range rep.Warnings {
			got[w.Pos] = w
		}
		return got
	}
	const gated, abba, quiet = "reduce_test.go:46:15", "reduce_test.go:75:15", "reduce_test.go:103:15"
	with, without := run("true"), run("false")
	exhausted := func(v verdict) bool { return v.Verdict == "infeasible" && v.Bound != nil && v.Bound.Exhausted }
	for name, got := range map[string]map[string]verdict{"with": with, "without": without} {
		if !exhausted(got[quiet]) {
			t.Errorf("%s the reduction: %s: %+v, want infeasible, exhausted (all: %+v)", name, quiet, got[quiet], got)
		}
		if got[abba].Verdict != "confirmed" {
			t.Errorf("%s the reduction: %s: %+v, want confirmed", name, abba, got[abba])
		}
		if v := got[gated].Verdict; v == "confirmed" || v == "unreached" {
			t.Errorf("%s the reduction: %s: %+v, want infeasible or unknown", name, gated, got[gated])
		}
	}
	if w, wo := with[gated], without[gated]; !exhausted(w) || w.Hidden == 0 || wo.Hidden != 0 || w.States >= wo.States {
		t.Errorf("reduction: %+v; without: %+v; want exhausted with it, accesses hidden, fewer states", w, wo)
	}
	c := with[abba]
	if c.Hidden == 0 || c.Trace == "" || c.Error == nil {
		t.Fatalf("confirmed under the reduction: %+v", c)
	}
	if _, errOut, code := gmc(t, "replay", c.Trace); code != 1 || !strings.Contains(errOut, "reproduced: "+c.Error.Kind) {
		t.Errorf("replay exit %d, want 1 and %s reproduced:\n%s", code, c.Error.Kind, errOut)
	}
}

// TestConfirmTwin: a warning in a package that is loaded twice (the
// package and its test variant) is checked on the copy the tests run, so
// code reached only through a function value (a finalizer) is not
// "unreached".
func TestConfirmTwin(t *testing.T) {
	ws := confirmWarnings(t, 0, "--time-limit", "1s", "./testdata/finalizer")
	if len(ws) != 1 || ws[0].Verdict == "unreached" || strings.Join(ws[0].Entries, ",") != "TestNew" {
		t.Errorf("warnings %+v, want one (chanblock in stopIt) reached by TestNew", ws)
	}
}

// confirmWarnings runs gmc confirm --json with gmc's analyzers only on
// args, expects exit code want, and returns the warnings' verdicts.
func confirmWarnings(t *testing.T, want int, args ...string) []struct {
	Verdict string
	Entries []string
} {
	t.Helper()
	out, errOut, code := gmc(t, append([]string{"confirm", "--json", "--vet=false", "--staticcheck=false"}, args...)...)
	if code != want {
		t.Fatalf("exit %d, want %d:\n%s", code, want, errOut)
	}
	var rep struct {
		Warnings []struct {
			Verdict string
			Entries []string
		}
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("bad JSON %q: %v", out, err)
	}
	return rep.Warnings
}

// TestConfirmRegistry: a case kept in a package-level table (the GoKer
// kernels' layout) is checked only on the entries whose call graph calls
// it, not on every entry because the initializer stores it.
func TestConfirmRegistry(t *testing.T) {
	ws := confirmWarnings(t, 1, "--time-limit", "2s", "./testdata/registry")
	if len(ws) != 1 || ws[0].Verdict != "confirmed" || strings.Join(ws[0].Entries, ",") != "TestABBA" {
		t.Errorf("warnings %+v, want one lock-order cycle confirmed, entries [TestABBA]", ws)
	}
}

// TestConfirmGeneric: a warning in generic code, reached by a test through
// an instance, is not called unreached (the call graph walk does not map
// instances back to the generic body).
func TestConfirmGeneric(t *testing.T) {
	out, errOut, code := gmc(t, "confirm", "--json", "--vet=false", "--staticcheck=false", "--time-limit", "2s", "./testdata/generic")
	var rep struct {
		Warnings []struct{ Check, Verdict, Note string }
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("exit %d, bad JSON %q: %v\n%s", code, out, err, errOut)
	}
	if len(rep.Warnings) == 0 {
		t.Fatalf("no warning:\n%s", errOut)
	}
	for _, w := range rep.Warnings {
		if w.Verdict == "unreached" || w.Verdict == "infeasible" {
			t.Errorf("%+v: want confirmed or unknown", w)
		}
	}
}
