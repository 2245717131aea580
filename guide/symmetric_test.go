package guide

import (
	"context"
	"os"
	"testing"
	"time"

	"github.com/gmc-go/gmc/vm"
	"github.com/gmc-go/gmc/vm/load"
	"github.com/gmc-go/gmc/vm/trace"
)

// TestSymmetricNearTwins: workers that look alike but differ (vm's
// testdata/neartwins: a value in a box each owns, pointers to different
// globals, boxes queued on a channel in some order, goroutine ids the
// program has seen, a preemption bound's last goroutine) with a bug that
// only one order of them shows: the dfs, the bounded search alone (at the
// bound the bug needs) and the exhaustive strategy find it with the
// symmetric reduction on, and the counterexample replays. With the boxes
// alike (twins, no bug), every exhaustive strategy says no-error.
func TestSymmetricNearTwins(t *testing.T) {
	if testing.Short() {
		t.Skip("loads a program and searches it a few times")
	}
	prog, err := load.Load(load.Config{Dir: "..", Patterns: []string{"./vm/testdata/neartwins"}})
	if err != nil {
		t.Fatal(err)
	}
	for _, mode := range []string{"heap", "shared", "queue", "stack", "lastrun", "same"} {
		o, _ := syncOnly(vm.Options{Checks: vm.Checks{Race: true}, Args: []string{mode}})
		for _, o := range []vm.Options{{Args: []string{mode}}, o} {
			m := vm.New(prog, o)
			e, err := m.FindEntry("main")
			if err != nil {
				t.Fatal(err)
			}
			check := func(how string, r Result) {
				t.Helper()
				if mode == "same" {
					if r.Verdict != VerdictNoError {
						t.Errorf("%s %s: %s, want no-error", mode, how, r.Verdict)
					}
					return
				}
				if r.Verdict != VerdictError || r.Final == nil {
					t.Errorf("%s sched=%v %s: %s, want the error", mode, o.Sched, how, r.Verdict)
					return
				}
				final, _, err := trace.Replay(vm.New(prog, o), e, r.Choices, nil)
				if err != nil || final.Err() == nil || final.Err().Msg != r.Final.Err().Msg {
					t.Errorf("%s %s: the counterexample does not replay to %v: %v, %v", mode, how, r.Final.Err(), final.Err(), err)
				}
			}
			for _, st := range []Strategy{DFS, Exhaustive} {
				check(string(st), Search(context.Background(), m, e, Config{Strategy: st, TimeLimit: time.Minute}))
			}
			// the bounded search alone: it finds the bug at the same
			// bound as without the reduction (one preemption for
			// lastrun's: the second counter goes on, a twin of the
			// first that ran last)
			bound := func(noSym bool) (int, Result) {
				se := newSearcher(context.Background(), m, Config{TimeLimit: time.Minute, MaxDepth: 100000, NoSymmetry: noSym})
				root := m.Start(e)
				for k := 0; ; k++ {
					out := se.preemptionBounded(root, k, 0)
					if out.found != nil {
						return k, se.result(VerdictError, out.found, out.path)
					}
					if k == 3 || !out.complete || !out.pruned {
						return k, Result{Verdict: VerdictNoError}
					}
				}
			}
			kb, _ := bound(true)
			k, r := bound(false)
			check("bounded", r)
			if k != kb {
				t.Errorf("%s sched=%v: the bounded search ends at bound %d with the reduction, %d without", mode, o.Sched, k, kb)
			}
		}
	}
}

// TestSymmetricStates: on the reduced model of errgroup's TestTryGo
// (benchmarks/symmetric, four identical senders), the exhaustive
// searches with the symmetric reduction give the same verdicts as without
// it, in fewer states, and leave choices out as twins'.
func TestSymmetricStates(t *testing.T) {
	if testing.Short() {
		t.Skip("loads a program and searches it a few times")
	}
	prog, err := load.Load(load.Config{Dir: "..", Patterns: []string{"./benchmarks/symmetric"}})
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("N", "4")
	if os.Getenv("N") != "4" {
		t.Fatal("N not set")
	}
	sync, _ := syncOnly(vm.Options{Checks: vm.Checks{Race: true, Leak: true}})
	for _, o := range []vm.Options{{Checks: vm.Checks{Race: true, Leak: true}}, sync} {
		m := vm.New(prog, o)
		e, err := m.FindEntry("TestSend")
		if err != nil {
			t.Fatal(err)
		}
		run := func(st Strategy, noSym bool) (Result, int) {
			se := newSearcher(context.Background(), m, Config{Strategy: st, TimeLimit: time.Minute, MaxDepth: 100000, NoSymmetry: noSym})
			var r Result
			switch st {
			case DFS:
				r = se.dfs(m.Start(e), false)
			case Exhaustive:
				r = se.iterated(m.Start(e))
			default: // bound 0 alone
				out := se.preemptionBounded(m.Start(e), 0, 0)
				r = Result{Verdict: VerdictUnknown}
				if out.complete {
					r.Verdict = VerdictNoError
				}
				r.Stats = se.stats
			}
			return r, se.twinsLeft
		}
		for _, st := range []Strategy{DFS, Exhaustive, "bounded0"} {
			base, _ := run(st, true)
			sym, left := run(st, false)
			t.Logf("sched=%v %s: %s, %d states without the reduction, %d with it (%d choices left out)", o.Sched, st, sym.Verdict, base.Stats.States, sym.Stats.States, left)
			if sym.Verdict != base.Verdict || sym.Verdict != VerdictNoError {
				t.Errorf("sched=%v %s: %s with the reduction, %s without", o.Sched, st, sym.Verdict, base.Verdict)
			}
			if sym.Stats.States >= base.Stats.States || left == 0 {
				t.Errorf("sched=%v %s: %d states with the reduction, %d without, %d choices left out", o.Sched, st, sym.Stats.States, base.Stats.States, left)
			}
		}
	}
}
