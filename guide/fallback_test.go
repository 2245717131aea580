package guide

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/gmc-go/gmc/heuristics"
	"github.com/gmc-go/gmc/vm"
	"github.com/gmc-go/gmc/vm/load"
	"github.com/gmc-go/gmc/vm/trace"
)

// TestFallbackRealTime: a panic that needs a 1ns timer to fire in the
// middle of a loop (vm/testdata/spin, case afterfunc) is found by the
// guided check's fallback — the Go-like walk, in real time (a transition
// takes 1µs, so the timer is due after the first one), never with timer
// choices unless the check asks for them — and its counterexample replays
// on the machine it was found on.
func TestFallbackRealTime(t *testing.T) {
	prog, err := load.Load(load.Config{Dir: filepath.Join("..", "vm", "testdata", "spin")})
	if err != nil {
		t.Fatal(err)
	}
	opts := vm.Options{Args: []string{"afterfunc"}}
	e, err := vm.New(prog, opts).FindEntry("main")
	if err != nil {
		t.Fatal(err)
	}
	cfg := CheckConfig{Options: opts, Entry: e, Auto: true, Strategy: Guided, Heuristic: heuristics.SecPFSM,
		Seed: 1, Trials: 1, TimeLimit: time.Minute, MaxDepth: 10000, Fallback: Random, FallbackTimers: true}
	res, err := Check(context.Background(), prog, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if res.Best == nil {
		t.Fatalf("verdict %s, want the panic", res.Verdict)
	}
	b := res.Best
	if e := b.Result.Final.Err(); e.Kind != vm.KindPanic || b.Machine.Options().Timing() != vm.TimingStep {
		t.Fatalf("%s: %s (timing %s), want the panic found in real time", e.Kind, e.Msg, b.Machine.Options().Timing())
	}
	final, _, err := trace.Replay(b.Machine, e, b.Result.Choices, nil)
	if err != nil || final.Err() == nil || final.Err().Msg != b.Result.Final.Err().Msg {
		t.Fatalf("replay: %v, %v", err, final.Err())
	}
}

// TestNothingToChase: the bounded search's larger share (idleBoundedShare)
// applies only when no trace set of the plan or of a prediction is left
// to search.
func TestNothingToChase(t *testing.T) {
	done, open := &setRun{exhausted: true}, &setRun{}
	for _, c := range []struct {
		runs, pruns []*setRun
		want        bool
	}{
		{nil, nil, true},
		{[]*setRun{done}, nil, true},
		{[]*setRun{done, done}, []*setRun{done}, true},
		{[]*setRun{open}, nil, false},
		{[]*setRun{done, open}, nil, false},
		{nil, []*setRun{open}, false},
	} {
		if got := nothingToChase(c.runs, c.pruns); got != c.want {
			t.Errorf("nothingToChase(%d sets, %d predicted) = %v, want %v", len(c.runs), len(c.pruns), got, c.want)
		}
	}
}
