package refine_test

import (
	"context"
	"errors"
	"math/rand/v2"
	"path/filepath"
	"testing"
	"time"

	"golang.org/x/tools/go/ssa"

	"github.com/gmc-go/gmc/abstract"
	"github.com/gmc-go/gmc/guide"
	"github.com/gmc-go/gmc/heuristics"
	"github.com/gmc-go/gmc/refine"
	"github.com/gmc-go/gmc/slice"
	"github.com/gmc-go/gmc/vm"
	"github.com/gmc-go/gmc/vm/load"
	"github.com/gmc-go/gmc/vm/loc"
)

func loadDir(t *testing.T, dir string) (*load.Program, []*ssa.Function) {
	t.Helper()
	prog, err := load.Load(load.Config{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	return prog, []*ssa.Function{prog.MainPackage().Func("main")}
}

// traceTo returns the first trace set to the target on line `line` of
// main.go and the index of its last branch step.
func traceTo(t *testing.T, prog *load.Program, entries []*ssa.Function, line string) (abstract.TraceSet, int) {
	t.Helper()
	target, err := abstract.ParseTarget(prog, "main.go:"+line)
	if err != nil {
		t.Fatal(err)
	}
	sys, err := abstract.Build(slice.New(prog.SSA), abstract.Config{Targets: []loc.Loc{target}, Entries: entries})
	if err != nil {
		t.Fatal(err)
	}
	sets := sys.TraceSets(abstract.Limits{Sets: 1})
	if len(sets) == 0 {
		t.Fatalf("no trace to main.go:%s", line)
	}
	k := -1
	for i, s := range sets[0].Traces[0].Steps {
		if s.Kind&abstract.Branch != 0 {
			k = i
		}
	}
	if k < 0 {
		t.Fatalf("no branch on the trace to main.go:%s", line)
	}
	return sets[0], k
}

func line(prog *load.Program, l loc.Loc) int { return prog.Fset.Position(l.Pos()).Line }

func indexOf(steps []abstract.Step, l loc.Loc, from int) int {
	for i := from; i < len(steps); i++ {
		if steps[i].Loc == l {
			return i
		}
	}
	return -1
}

// TestRefine: the consumer's check of ready needs the producer's store
// (Fig. 2.6): refinement adds the producer's trace to the store, the step
// after it, and the producer's release of the lock both take, before the
// consumer's acquisition; a second refinement adds the store once more; a
// branch on a parameter cannot be refined.
func TestRefine(t *testing.T) {
	prog, entries := loadDir(t, filepath.Join("testdata", "ready"))
	ts, k := traceTo(t, prog, entries, "25")
	orig := append([]abstract.Step(nil), ts.Traces[0].Steps...)
	branch := orig[k].Loc

	r := refine.New(prog.SSA, entries)
	rng := rand.New(rand.NewPCG(1, 1))
	nts, info, err := r.Refine(ts, 0, k, rng)
	if err != nil {
		t.Fatal(err)
	}
	if len(ts.Traces[0].Steps) != len(orig) {
		t.Errorf("Refine changed its argument")
	}
	if info.Branch != branch || line(prog, info.Def) != 17 || line(prog, info.Release) != 18 {
		t.Fatalf("refinement %+v: want the store of line 17 and the release of line 18", info)
	}
	steps := nts.Traces[0].Steps
	if len(steps) != len(orig)+info.Added {
		t.Fatalf("%d steps, want %d + %d", len(steps), len(orig), info.Added)
	}
	def := indexOf(steps, info.Def, 0)
	rel := indexOf(steps, info.Release, def+1)
	br := indexOf(steps, branch, 0)
	if def < 0 || rel < def || br < rel || steps[len(steps)-1].Loc != orig[len(orig)-1].Loc {
		t.Fatalf("order: def %d, release %d, branch %d in %d steps", def, rel, br, len(steps))
	}
	// the step after the release is matched once it ran (here the release
	// directly follows the store, so it is also the step after the store)
	if rel != def+1 || steps[rel+1].Loc.Index != info.Release.Index+1 || steps[rel].Kind&abstract.Release == 0 {
		t.Errorf("steps after the definition: %+v", steps[def:rel+2])
	}
	// the producer's steps come before the consumer's acquisition of mu
	for i := 0; i < info.At; i++ {
		if s := steps[i]; s.Kind&abstract.Acquire != 0 && s.Loc.Fn.Name() == "consumer" {
			t.Errorf("consumer acquires at %d, before the producer's steps at %d", i, info.At)
		}
	}
	// repeated refinement at the same branch adds the definition again
	k2 := indexOf(steps, branch, 0)
	nts2, _, err := r.Refine(nts, 0, k2, rng)
	if err != nil {
		t.Fatal(err)
	}
	if first := indexOf(nts2.Traces[0].Steps, info.Def, 0); first < 0 || indexOf(nts2.Traces[0].Steps, info.Def, first+1) < 0 {
		t.Errorf("second refinement did not add the definition again")
	}

	// n > 100 reads a parameter: no other goroutine defines it
	pts, pk := traceTo(t, prog, entries, "29")
	if _, _, err := r.Refine(pts, 0, pk, rng); !errors.Is(err, refine.ErrNoDefinition) {
		t.Errorf("branch on a parameter: got %v, want ErrNoDefinition", err)
	}
}

// TestGuidedRefinement: the guided search refines on stalls and finds the
// errors that need another goroutine's definitions: the ready program and
// the seed's Airline(20,1) (Table 2.2: 20 refinements); the counterexample
// replays. --no-refine never refines. The search resumes where it stalled
// after most refinements (Airline: restarts fewer than half the
// refinements); the seed's (RestartRefine, eager successors) restarts
// after each and finds it too.
func TestGuidedRefinement(t *testing.T) {
	cases := []struct {
		dir            string
		args           []string
		minRefinements int
	}{
		{filepath.Join("testdata", "ready"), nil, 1},
		{filepath.Join("..", "benchmarks", "airline"), []string{"20", "1"}, 10},
	}
	for _, c := range cases {
		prog, _ := loadDir(t, c.dir)
		probe := vm.New(prog, vm.Options{})
		e, err := probe.FindEntry("")
		if err != nil {
			t.Fatal(err)
		}
		for _, mode := range []string{"resume", "no-refine", "restart"} {
			noRefine := mode == "no-refine"
			// the search is deterministic (seed 1): the limit only
			// matters on a loaded machine; without refinement the search
			// need not end, only never refine
			limit := 3 * time.Minute
			if noRefine {
				limit = 10 * time.Second
			}
			cfg := guide.CheckConfig{Options: vm.Options{Args: c.args}, Entry: e, Auto: true,
				Strategy: guide.Guided, Heuristic: heuristics.SecPFSM, Seed: 1, TimeLimit: limit, NoRefine: noRefine,
				RestartRefine: mode == "restart", Eager: mode == "restart"}
			res, err := guide.Check(context.Background(), prog, cfg)
			if err != nil {
				t.Fatal(err)
			}
			st := res.Trials[0].Result.Stats
			t.Logf("%s %v %s: %s, %d states, %d refinements, %d restarts", c.dir, c.args, mode, res.Verdict, st.States, st.Refinements, st.Restarts)
			if noRefine {
				if st.Refinements != 0 {
					t.Errorf("%s: %d refinements with NoRefine", c.dir, st.Refinements)
				}
				continue
			}
			if res.Verdict != guide.VerdictError || res.Best.Result.Final.Err() == nil {
				t.Fatalf("%s: verdict %s", c.dir, res.Verdict)
			}
			if st.Refinements < c.minRefinements {
				t.Errorf("%s: %d refinements, want at least %d", c.dir, st.Refinements, c.minRefinements)
			}
			// the seed's search starts again after every refinement;
			// the resumed one goes on where it stalled after most
			if mode == "restart" && st.Restarts != st.Refinements {
				t.Errorf("%s: %d restarts after %d refinements with RestartRefine", c.dir, st.Restarts, st.Refinements)
			}
			if mode == "resume" && c.minRefinements > 1 && 2*st.Restarts >= st.Refinements {
				t.Errorf("%s: %d restarts after %d refinements: the search did not resume", c.dir, st.Restarts, st.Refinements)
			}
			b := res.Best
			s := b.Machine.Start(e)
			for _, i := range b.Result.Choices {
				s = b.Machine.Step(s, i)
			}
			if s.Err() == nil || s.Err().Msg != b.Result.Final.Err().Msg {
				t.Errorf("%s: the counterexample does not replay", c.dir)
			}
		}
	}
}
