package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

// TestCheckMonitor: with the lock-graph monitor the AB-BA deadlock of
// guide/testdata/lockgraph/abba is reported with the prediction it came
// from, and replays; without it the report has neither.
func TestCheckMonitor(t *testing.T) {
	out := filepath.Join(t.TempDir(), "trace.json")
	type report struct {
		Verdict string
		Error   struct {
			Kind          string
			PredictedFrom *struct {
				Monitor string
				Cycle   []struct {
					G         int
					Holds     string
					AcquireAt string `json:"acquire_at"`
				}
			} `json:"predicted_from"`
		}
		Monitor *struct{ Predictions int }
	}
	for _, mon := range []string{"lockgraph", "none"} {
		stdout, stderr, code := gmc(t, "check", "--json", "--monitor", mon, "--out", out, "../../guide/testdata/lockgraph/abba")
		if code != 1 {
			t.Fatalf("%s: exit %d, want 1\n%s", mon, code, stderr)
		}
		var rep report
		if err := json.Unmarshal([]byte(stdout), &rep); err != nil {
			t.Fatalf("%s: %v\n%s", mon, err, stdout)
		}
		if rep.Verdict != "error" || rep.Error.Kind != "deadlock" {
			t.Fatalf("%s: %+v", mon, rep)
		}
		pf := rep.Error.PredictedFrom
		if mon == "none" {
			if pf != nil || rep.Monitor != nil {
				t.Errorf("none: the report has monitor data: %s", stdout)
			}
			continue
		}
		if pf == nil || pf.Monitor != "lockgraph" || len(pf.Cycle) != 2 || rep.Monitor == nil || rep.Monitor.Predictions != 1 {
			t.Fatalf("lockgraph: no prediction with the deadlock: %s", stdout)
		}
		for _, e := range pf.Cycle {
			if e.Holds != "write" || !strings.HasPrefix(e.AcquireAt, "main.go:") {
				t.Errorf("cycle edge %+v", e)
			}
		}
		if _, stderr, code := gmc(t, "replay", out); code != 1 {
			t.Errorf("replay exit %d\n%s", code, stderr)
		}
	}
}

// TestCheckMonitorPredict: with the predictive race monitor the race of
// guide/testdata/predict/classic, which the first run orders by
// happens-before, is reported with the prediction it came from (its two
// accesses), and replays; a program whose predicted-looking race a
// channel orders (chanordered) gets neither an error nor a prediction.
func TestCheckMonitorPredict(t *testing.T) {
	out := filepath.Join(t.TempDir(), "trace.json")
	type report struct {
		Verdict string
		Error   struct {
			Kind          string
			PredictedFrom *struct {
				Monitor  string
				Accesses []struct {
					G  int
					Op string
					At string
				}
			} `json:"predicted_from"`
		}
		Monitor *struct {
			Monitors    []string
			Predictions int
		}
	}
	stdout, stderr, code := gmc(t, "check", "--json", "--check", "race", "--monitor", "lockgraph,predict", "--out", out, "../../guide/testdata/predict/classic")
	if code != 1 {
		t.Fatalf("classic: exit %d, want 1\n%s", code, stderr)
	}
	var rep report
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil {
		t.Fatalf("%v\n%s", err, stdout)
	}
	pf := rep.Error.PredictedFrom
	if rep.Verdict != "error" || rep.Error.Kind != "race" || pf == nil || pf.Monitor != "predict" || len(pf.Accesses) != 2 {
		t.Fatalf("classic: no race with its prediction: %s", stdout)
	}
	ops := pf.Accesses[0].Op + "," + pf.Accesses[1].Op
	if ops != "write,read" || pf.Accesses[0].At != "main.go:27:2" || pf.Accesses[1].At != "main.go:23:6" {
		t.Errorf("predicted accesses %+v, want the write at main.go:27:2 and the read at main.go:23:6", pf.Accesses)
	}
	if rep.Monitor == nil || strings.Join(rep.Monitor.Monitors, ",") != "lockgraph,predict" {
		t.Errorf("monitor object %+v", rep.Monitor)
	}
	if _, stderr, code := gmc(t, "replay", out); code != 1 {
		t.Errorf("replay exit %d\n%s", code, stderr)
	}
	stdout, stderr, code = gmc(t, "check", "--json", "--check", "race", "--monitor", "predict", "../../guide/testdata/predict/chanordered")
	if code != 0 {
		t.Fatalf("chanordered: exit %d, want 0\n%s", code, stderr)
	}
	rep = report{}
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil {
		t.Fatalf("%v\n%s", err, stdout)
	}
	if rep.Verdict != "no-error" || rep.Monitor == nil || rep.Monitor.Predictions != 0 {
		t.Errorf("chanordered: %s", stdout)
	}
}
