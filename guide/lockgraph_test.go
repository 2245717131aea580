package guide

import (
	"bufio"
	"context"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/gmc-go/gmc/heuristics"
	"github.com/gmc-go/gmc/vm"
	"github.com/gmc-go/gmc/vm/trace"
)

// lockgraphCases are the programs of testdata/lockgraph: those with
// `// want "acquire"` comments deadlock, with the goroutines waiting on
// those lines; the others cannot deadlock.
var lockgraphCases = []string{"abba", "gated", "forked", "chanlock", "readread", "handoff", "chansem"}

// wantLines returns the lines of dir's main.go marked `// want "acquire"`.
func wantLines(t *testing.T, dir string) []int {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", "lockgraph", dir, "main.go"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []int
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		if strings.Contains(sc.Text(), `// want "acquire"`) {
			out = append(out, n)
		}
	}
	return out
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestLockGraphOneRun runs each program once, always scheduling the first
// enabled goroutine (each goroutine runs to its end before the next one
// starts, so nothing deadlocks), and checks what the monitor predicts from
// that run alone.
func TestLockGraphOneRun(t *testing.T) {
	for _, dir := range lockgraphCases {
		t.Run(dir, func(t *testing.T) {
			prog, opts, e := loadMain(t, "./guide/testdata/lockgraph/"+dir, nil)
			m := vm.New(prog, opts)
			lg := NewLockGraph()
			s := m.Start(e)
			s.SetLockObserver(lg)
			for steps := 0; !s.Terminal() && steps < 10000; steps++ {
				s = m.Step(s, 0)
			}
			if s.Err() != nil {
				t.Fatalf("the first run ended with %v", s.Err())
			}
			want := wantLines(t, dir)
			preds := lg.Predictions()
			if len(want) == 0 {
				if len(preds) != 0 {
					t.Fatalf("predicted %s; want no prediction", preds[0].Describe(prog.Fset))
				}
				return
			}
			if len(preds) != 1 {
				t.Fatalf("%d predictions, want 1", len(preds))
			}
			var got []int
			for _, l := range preds[0].Targets() {
				got = append(got, prog.Fset.Position(l.Pos()).Line)
			}
			sort.Ints(got)
			if !equalInts(got, want) {
				t.Fatalf("predicted acquisitions on lines %v, want %v (%s)", got, want, preds[0].Describe(prog.Fset))
			}
		})
	}
}

// TestLockGraphCheck checks each program with the monitor: a predicted
// cycle is reported only as the deadlock the search reaches, with the
// prediction it came from, and the counterexample replays; a program
// that cannot deadlock gets no prediction and no error.
func TestLockGraphCheck(t *testing.T) {
	for _, dir := range lockgraphCases {
		t.Run(dir, func(t *testing.T) {
			prog, opts, e := loadMain(t, "./guide/testdata/lockgraph/"+dir, nil)
			cfg := CheckConfig{Options: opts, Entry: e, Auto: true, Bounded: true, Strategy: Guided,
				Heuristic: heuristics.SecPFSM, Seed: 1, Trials: 1, Parallel: 1, TimeLimit: 20 * time.Second,
				MaxDepth: 100000, MaxBacktrack: 100000, Monitors: Monitors{LockGraph: true}}
			res, err := Check(context.Background(), prog, cfg)
			if err != nil {
				t.Fatal(err)
			}
			want := wantLines(t, dir)
			tr := res.Trials[0]
			if len(want) == 0 {
				if res.Verdict != VerdictNoError || len(tr.Predictions) != 0 {
					t.Fatalf("verdict %s with %d predictions; want no-error and none", res.Verdict, len(tr.Predictions))
				}
				return
			}
			if res.Verdict != VerdictError || res.Best == nil {
				t.Fatalf("verdict %s, want error", res.Verdict)
			}
			b := res.Best
			ve := b.Result.Final.Err()
			if ve.Kind != vm.KindDeadlock {
				t.Fatalf("error %s (%s), want a deadlock", ve.Kind, ve.Msg)
			}
			if b.PredictedFrom == nil {
				t.Fatalf("the deadlock does not come with its prediction (%d predictions)", len(b.Predictions))
			}
			replayed, _, err := trace.Replay(b.Machine, e, b.Result.Choices, nil)
			if err != nil || replayed.Err() == nil || replayed.Err().Msg != ve.Msg {
				t.Fatalf("the counterexample does not replay: %v, %v", err, replayed.Err())
			}
		})
	}
}
