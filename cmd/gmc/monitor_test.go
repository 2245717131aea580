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
