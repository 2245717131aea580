package vm_test

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/gmc-go/gmc/vm"
	"github.com/gmc-go/gmc/vm/load"
)

// loaded loads testdata/NAME once per test (machine loads it again
// each time).
func loaded(t *testing.T) func(name string, opts vm.Options) (*vm.Machine, vm.Entry) {
	progs := map[string]*load.Program{}
	return func(name string, opts vm.Options) (*vm.Machine, vm.Entry) {
		t.Helper()
		prog := progs[name]
		if prog == nil {
			var err error
			if prog, err = load.Load(load.Config{Dir: filepath.Join("testdata", name)}); err != nil {
				t.Fatal(err)
			}
			progs[name] = prog
		}
		m := vm.New(prog, opts)
		e, err := m.FindEntry("")
		if err != nil {
			t.Fatal(err)
		}
		return m, e
	}
}

// TestTwinsMirror checks State.Twins against what it promises, over
// breadth-first searches of programs with twins and near twins, with and
// without the race detector, under both scheduling modes: at every state,
// for every class of twins, each member's choices are alike the first
// member's, and the successors by alike choices are the same state up to
// the renaming that swaps the two twins. Some classes must be found.
func TestTwinsMirror(t *testing.T) {
	progs := []struct {
		name string
		args []string
	}{
		{"symmetry", nil}, {"twinqueue", nil}, {"queuesym", nil},
		{"neartwins", []string{"same"}}, {"neartwins", []string{"heap"}},
		{"neartwins", []string{"shared"}}, {"neartwins", []string{"queue"}},
		{"neartwins", []string{"lastrun"}},
	}
	total := 0
	machine := loaded(t)
	for _, p := range progs {
		for _, o := range []vm.Options{
			{Sched: vm.SchedSync, Checks: vm.Checks{Race: true}, Args: p.args},
			{Sched: vm.SchedShared, Args: p.args},
		} {
			m, e := machine(p.name, o)
			pairs := 0
			seen := map[uint64]bool{}
			queue := []*vm.State{m.Start(e)}
			for len(queue) > 0 && len(seen) < 400 {
				s := queue[0]
				queue = queue[1:]
				if seen[s.Hash()] {
					continue
				}
				seen[s.Hash()] = true
				pairs += checkMirrors(t, m, s, fmt.Sprintf("%s %v race=%v", p.name, p.args, o.Checks.Race))
				for i := range s.Choices() {
					if n := m.Step(s, i); n.Err() == nil {
						queue = append(queue, n)
					}
				}
			}
			t.Logf("%s %v race=%v: %d states, %d twin choices mirrored", p.name, p.args, o.Checks.Race, len(seen), pairs)
			total += pairs
		}
	}
	if total == 0 {
		t.Errorf("no twins found")
	}
}

// checkMirrors checks the classes of twins of s (TestTwinsMirror) and
// returns how many pairs of alike choices it compared.
func checkMirrors(t *testing.T, m *vm.Machine, s *vm.State, what string) int {
	t.Helper()
	type alike struct {
		kind        vm.ChoiceKind
		cas, branch int
	}
	pairs := 0
	cs := s.Choices()
	for _, class := range s.Twins(nil, 0) {
		of := func(g int) map[alike]int {
			r := map[alike]int{}
			for i, c := range cs {
				if c.G == g {
					r[alike{c.Kind, c.Case, c.Branch}] = i
				}
			}
			return r
		}
		rep := of(class[0])
		if len(rep) == 0 {
			t.Errorf("%s: twin %d has no choice", what, class[0])
		}
		for _, g := range class[1:] {
			mine := of(g)
			if len(mine) != len(rep) {
				t.Errorf("%s: twins %d and %d have %d and %d choices", what, class[0], g, len(rep), len(mine))
				continue
			}
			for k, i := range rep {
				j, ok := mine[k]
				if !ok {
					t.Errorf("%s: twin %d has no choice alike %d's %v", what, g, class[0], k)
					continue
				}
				// b is a renamed (Hash breaks ties between twins by
				// id, so compare canonical forms when it differs)
				a, b := m.Step(s, i), m.Step(s, j)
				if a.Unwinding() && b.Unwinding() {
					continue // (hashed with dead registers, which twins need not share)
				}
				same := a.Hash() == b.Hash()
				if !same {
					ha, oka := a.HashMin()
					hb, okb := b.HashMin()
					same = oka && okb && ha == hb
				}
				if !same || (a.Err() == nil) != (b.Err() == nil) {
					t.Errorf("%s: the successors by twins %d and %d differ (%s | %s)", what, class[0], g, errString(a.Err()), errString(b.Err()))
				}
				pairs++
			}
		}
	}
	return pairs
}

// TestTwinsNear checks that workers that look alike but differ are not
// twins: at the state where main waits for them and the three workers
// are about to start, only neartwins' "same" workers (boxes of equal
// values) are; the workers of "heap" (boxes of other values), "shared"
// (pointers to different globals), "queue" (other boxes, queued later)
// and "stack" (the program has seen goroutine ids) are not.
func TestTwinsNear(t *testing.T) {
	machine := loaded(t)
	for _, mode := range []string{"same", "heap", "shared", "queue", "stack"} {
		for _, race := range []bool{false, true} {
			m, e := machine("neartwins", vm.Options{Sched: vm.SchedSync, Checks: vm.Checks{Race: race}, Args: []string{mode}})
			s := runBlocked(m, m.Start(e), 1)
			workers := 0
			for _, c := range s.Choices() {
				if c.G != 1 {
					workers++
				}
			}
			if workers != 3 {
				t.Fatalf("%s: %d workers can run, want 3", mode, workers)
			}
			classes := s.Twins(nil, 0)
			if mode == "same" {
				if len(classes) != 1 || len(classes[0]) != 3 {
					t.Errorf("same race=%v: twins %v, want one class of the three workers", race, classes)
				}
				// past its deadline Twins proves nothing (a search
				// stopped at its time limit does not wait for proofs)
				if late := s.Twins(nil, 1); len(late) != 0 {
					t.Errorf("same race=%v: twins %v past the deadline, want none", race, late)
				}
			} else if len(classes) != 0 {
				t.Errorf("%s race=%v: twins %v, want none", mode, race, classes)
			}
		}
	}
}
