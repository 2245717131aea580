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

// predictCases are the programs of testdata/predict: those with
// `// want "race"` comments race, with accesses on those lines, though
// the run that always schedules the first enabled goroutine orders them
// by happens-before; the others cannot race.
var predictCases = []string{"classic", "rwread", "chanordered", "conflict", "prefix"}

// raceWantLines returns the lines of dir's main.go marked `// want "race"`.
func raceWantLines(t *testing.T, dir string) []int {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", "predict", dir, "main.go"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []int
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		if strings.Contains(sc.Text(), `// want "race"`) {
			out = append(out, n)
		}
	}
	return out
}

// TestPredictOneRun runs each program once, always scheduling the first
// enabled goroutine, and checks that the run has no happens-before race
// and what the predictive monitor predicts from it alone.
func TestPredictOneRun(t *testing.T) {
	for _, dir := range predictCases {
		t.Run(dir, func(t *testing.T) {
			prog, opts, e := loadMain(t, "./guide/testdata/predict/"+dir, nil)
			opts.Checks.Race = true
			m := vm.New(prog, opts)
			mon := NewMonitor(Monitors{Predict: true})
			s := startObserved(m, e, mon)
			for steps := 0; !s.Terminal() && steps < 10000; steps++ {
				s = m.Step(s, 0)
			}
			if s.Err() != nil {
				t.Fatalf("the first run ended with %v", s.Err())
			}
			want := raceWantLines(t, dir)
			preds := mon.Predictions()
			if len(want) == 0 {
				if len(preds) != 0 {
					t.Fatalf("predicted %s; want no prediction", preds[0].Describe(prog.Fset))
				}
				return
			}
			if len(preds) != 1 || preds[0].Race == nil {
				t.Fatalf("%d predictions, want 1 race", len(preds))
			}
			var got []int
			for _, l := range preds[0].Targets() {
				got = append(got, prog.Fset.Position(l.Pos()).Line)
			}
			sort.Ints(got)
			if !equalInts(got, want) {
				t.Fatalf("predicted a race on lines %v, want %v (%s)", got, want, preds[0].Describe(prog.Fset))
			}
		})
	}
}

// TestPredictCheck checks each program with the monitor: a predicted race
// is reported only as the race an executed run shows, with the
// prediction it came from, and the counterexample replays; a program that
// cannot race gets no error.
func TestPredictCheck(t *testing.T) {
	for _, dir := range predictCases {
		t.Run(dir, func(t *testing.T) {
			prog, opts, e := loadMain(t, "./guide/testdata/predict/"+dir, nil)
			opts.Checks.Race = true
			cfg := CheckConfig{Options: opts, Entry: e, Auto: true, Bounded: true, Strategy: Guided,
				Heuristic: heuristics.SecPFSM, Seed: 1, Trials: 1, Parallel: 1, TimeLimit: 20 * time.Second,
				MaxDepth: 100000, MaxBacktrack: 100000, Monitors: Monitors{Predict: true}}
			res, err := Check(context.Background(), prog, cfg)
			if err != nil {
				t.Fatal(err)
			}
			want := raceWantLines(t, dir)
			if len(want) == 0 {
				if res.Verdict != VerdictNoError {
					t.Fatalf("verdict %s, want no-error", res.Verdict)
				}
				return
			}
			if res.Verdict != VerdictError || res.Best == nil {
				t.Fatalf("verdict %s, want error", res.Verdict)
			}
			b := res.Best
			ve := b.Result.Final.Err()
			if ve.Kind != vm.KindRace {
				t.Fatalf("error %s (%s), want a race", ve.Kind, ve.Msg)
			}
			if b.PredictedFrom == nil || b.PredictedFrom.Race == nil {
				t.Fatalf("the race does not come with its prediction (%d predictions)", len(b.Predictions))
			}
			replayed, _, err := trace.Replay(b.Machine, e, b.Result.Choices, nil)
			if err != nil || replayed.Err() == nil || replayed.Err().Msg != ve.Msg {
				t.Fatalf("the counterexample does not replay: %v, %v", err, replayed.Err())
			}
		})
	}
}
