package guide

import (
	"fmt"
	"os"
	"time"

	"github.com/gmc-go/gmc/abstract"
	"github.com/gmc-go/gmc/vm"
	"github.com/gmc-go/gmc/vm/load"
)

// debugOn turns on a trace of the guided check's rounds on stderr
// (GMC_DEBUG=1): the trace set followed, the states spent, the stall.
var debugOn = os.Getenv("GMC_DEBUG") != ""

func debugRound(prog *load.Program, set, refined int, ts *abstract.TraceSet, r Result) {
	if !debugOn {
		return
	}
	fmt.Fprintf(os.Stderr, "gmc: set %d refinement %d: %d states (%d transitions) in %v, best level %d, verdict %s\n", set, refined, r.Stats.States, r.Stats.Transitions, r.Stats.Time.Round(time.Millisecond), r.Stats.BestLevel, r.Verdict)
	for i, t := range ts.Traces {
		fmt.Fprintf(os.Stderr, "  trace %d: %s\n", i, t.Text(prog.Fset))
	}
	if r.Stall != nil {
		fmt.Fprintf(os.Stderr, "  stalled at trace %d step %d (%s)\n", r.Stall.Trace, r.Stall.Step, abstract.Position(prog.Fset, r.Stall.Branch))
	}
}

// debugPlan reports when a plan built within wait ended (GMC_DEBUG=1).
func debugPlan(pl *plan, took, wait time.Duration) {
	if !debugOn {
		return
	}
	n := 0
	if pl != nil {
		n = len(pl.sets)
	}
	fmt.Fprintf(os.Stderr, "gmc: plan ends after %v (%d trace sets; waited for %v)\n", took.Round(time.Millisecond), n, wait)
}

var debugPath = os.Getenv("GMC_DEBUG") == "3"

func debugMove(parent, s *vm.State, r RankState) {
	l := s.LastStep()
	var at string
	if st := s.Stack(l.G); len(st) > 0 {
		at = st[0].String()
	}
	fmt.Fprintf(os.Stderr, "  move g%d %s %s -> %s level %d H %d\n", l.G, l.Op, l.Loc, at, r.Level, r.H)
}

// debugWalk traces a round of one of the fallback's walks (GMC_DEBUG=1).
func debugWalk(round, kind int, w *walkState, r Result) {
	if !debugOn {
		return
	}
	fmt.Fprintf(os.Stderr, "gmc: round %d walk %d: %d states in %v, %d runs ended, hash work %d, verdict %s\n", round, kind, r.Stats.States, r.Stats.Time.Round(time.Millisecond), w.runs, w.work, r.Verdict)
}

// debugBounded traces a round of the bounded exhaustive search of a check.
func debugBounded(round int, br *boundRun, states int, exTime, elapsed, turn time.Duration) {
	if !debugOn {
		return
	}
	fmt.Fprintf(os.Stderr, "gmc: round %d bounded: %d states, bound %d (done %d, full search done %v), %v of %v (turn of at most %v)\n",
		round, states, br.k, br.done, br.fullDone, exTime.Round(time.Millisecond), elapsed.Round(time.Millisecond), turn.Round(time.Millisecond))
}

// debugBoundDone prints when the bounded search completes bound k: the
// time since the search started and the states it has made.
func debugBoundDone(k int, elapsed time.Duration, states int) {
	if debugOn {
		fmt.Fprintf(os.Stderr, "gmc: bound %d complete after %v, %d states\n", k, elapsed.Round(time.Millisecond), states)
	}
}
