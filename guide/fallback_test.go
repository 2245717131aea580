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

// TestLateShare: the bounded search's share rises once half of the time
// limit has gone (lateShare), and a round then gets the states it makes in
// the time that brings its part to that share (boundedSlice).
func TestLateShare(t *testing.T) {
	for _, c := range []struct {
		limit, elapsed time.Duration
		want           bool
	}{
		{10 * time.Second, 4 * time.Second, false},
		{10 * time.Second, 5 * time.Second, true},
		{10 * time.Second, 9 * time.Second, true},
		{0, time.Hour, false}, // no limit: no late phase
	} {
		if got := lateShare(c.limit, c.elapsed); got != c.want {
			t.Errorf("lateShare(%v, %v) = %v, want %v", c.limit, c.elapsed, got, c.want)
		}
	}
	for _, c := range []struct {
		share           float64
		elapsed, exTime time.Duration
		exStates, want  int
	}{
		// 2 s of 8 s so far at 10,000 states/s: 16 s more brings it to
		// 18 of 24 s
		{0.75, 8 * time.Second, 2 * time.Second, 20000, 160000},
		{0.75, 8 * time.Second, 6 * time.Second, 60000, 0}, // at its share already
		{0.75, 8 * time.Second, 0, 0, 0},                   // no rate yet
		{1, 8 * time.Second, 2 * time.Second, 20000, 0},
	} {
		if got := boundedSlice(c.share, c.elapsed, c.exTime, c.exStates); got != c.want {
			t.Errorf("boundedSlice(%v, %v, %v, %d) = %d, want %d", c.share, c.elapsed, c.exTime, c.exStates, got, c.want)
		}
	}
}

// TestOnlyUnpreempted: with the preemption bound used up, the choice that
// does not preempt the goroutine that ran last (or a timer) is the only
// one when there is exactly one such.
func TestOnlyUnpreempted(t *testing.T) {
	g := func(id int) vm.Choice { return vm.Choice{G: id} }
	timer := vm.Choice{G: 3, Kind: vm.ChooseTimer}
	for _, c := range []struct {
		choices []vm.Choice
		last    int
		want    int
		ok      bool
	}{
		{[]vm.Choice{g(1), g(2), g(3)}, 2, 1, true},
		{[]vm.Choice{g(1), g(2), timer}, 2, 2, false}, // the timer is free too
		{[]vm.Choice{g(1), g(2), g(2)}, 2, 2, false},  // two choices of last (a select)
		{[]vm.Choice{g(1), g(3)}, 2, -1, false},
	} {
		got, ok := onlyUnpreempted(c.choices, c.last)
		if ok != c.ok || ok && got != c.want {
			t.Errorf("onlyUnpreempted(%v, %d) = %d, %v; want %d, %v", c.choices, c.last, got, ok, c.want, c.ok)
		}
	}
}

// TestSearchStopsAtCut: a step that runs past the search's time limit is
// cut (vm.Machine.StepWithin) and the search stops there at once, whatever
// its clock polling says.
func TestSearchStopsAtCut(t *testing.T) {
	prog, opts, e := loadMain(t, "./vm/testdata/longstep", nil)
	m := vm.New(prog, opts)
	se := newSearcher(context.Background(), m, Config{TimeLimit: time.Minute})
	s := startObserved(m, e, nil)
	n := se.step(s, 0)
	if n.Cut() || se.stop(0) {
		t.Fatalf("a step within the time limit was cut (%v) or stopped the search", n.Cut())
	}
	se.start = time.Now().Add(-2 * time.Minute) // the limit is past
	n = se.step(n, 0)
	if !n.Cut() || !se.stop(0) || !se.outOfBudget() {
		t.Errorf("a step past the limit: cut %v, the search stops %v", n.Cut(), se.stop(0))
	}
}

// TestWalkFork: a walk's runs after the first start at the first state
// with a choice (testdata/forkwalk: the package's initialization before
// it is forced), with that state's path, so a panic found in a later run
// replays from the initial state; and the forced prefix is not walked
// again (the runs together take fewer states than as many runs from the
// initial state would).
func TestWalkFork(t *testing.T) {
	prog, err := load.Load(load.Config{Dir: filepath.Join("testdata", "forkwalk")})
	if err != nil {
		t.Fatal(err)
	}
	m := vm.New(prog, vm.Options{})
	e, err := m.FindEntry("main")
	if err != nil {
		t.Fatal(err)
	}
	later := 0 // seeds that found the panic after their first run
	for seed := uint64(1); seed <= 8; seed++ {
		se := newSearcher(context.Background(), m, Config{Seed: seed, TimeLimit: time.Minute})
		root := m.Start(e)
		w := &walkState{s: root, p: &pathNode{}, forced: true}
		r := se.walk(root, w, 0)
		if r.Verdict != VerdictError || w.fork == nil {
			t.Fatalf("seed %d: verdict %s after %d runs (fork %v), want the panic", seed, r.Verdict, w.runs, w.fork != nil)
		}
		if w.forkP.depth < 300 {
			t.Errorf("seed %d: the fork is at depth %d, want past the initialization (300 or more)", seed, w.forkP.depth)
		}
		final, _, err := trace.Replay(m, e, r.Choices, nil)
		if err != nil || final.Err() == nil || final.Err().Msg != r.Final.Err().Msg {
			t.Fatalf("seed %d: replay: %v, %v", seed, err, final.Err())
		}
		if w.runs > 0 {
			later++
			if r.Stats.States >= (w.runs+1)*w.forkP.depth {
				t.Errorf("seed %d: %d runs took %d states: the forced prefix (%d states) was walked again", seed, w.runs+1, r.Stats.States, w.forkP.depth)
			}
		}
	}
	if later == 0 {
		t.Errorf("no seed found the panic after its first run (nothing checked of the runs from the fork)")
	}
}
