package vm_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/gmc-go/gmc/vm"
	"github.com/gmc-go/gmc/vm/load"
	"github.com/gmc-go/gmc/vm/trace"
)

var symProg = sync.OnceValues(func() (*load.Program, error) {
	return load.Load(load.Config{Dir: filepath.Join("testdata", "sym")})
})

// symDFS searches the states of a symbolic run depth first (visited set by
// hash) for an error; it returns the error state and its choices.
func symDFS(m *vm.Machine, e vm.Entry, limit int) (*vm.State, []int, int) {
	visited := map[uint64]bool{}
	n := 0
	var path []int
	var found *vm.State
	var foundPath []int
	var dfs func(s *vm.State)
	dfs = func(s *vm.State) {
		if found != nil || n >= limit {
			return
		}
		if s.Err() != nil {
			found, foundPath = s, append([]int(nil), path...)
			return
		}
		for i := range s.Choices() {
			c := m.Step(s, i)
			n++
			if visited[c.Hash()] {
				continue
			}
			visited[c.Hash()] = true
			path = append(path, i)
			dfs(c)
			path = path[:len(path)-1]
		}
	}
	dfs(m.Start(e))
	return found, foundPath, n
}

// TestSymbolic: each fuzz target of testdata/sym reaches the error its
// "want: kind: message" comment names (or none) under a symbolic search; the inputs of
// the error state, run concretely with the search's choices minus its data
// choices, reproduce the error without the solver.
func TestSymbolic(t *testing.T) {
	prog, err := symProg()
	if err != nil {
		t.Fatal(err)
	}
	src, err := os.ReadFile(filepath.Join("testdata", "sym", "sym_test.go"))
	if err != nil {
		t.Fatal(err)
	}
	re := regexp.MustCompile(`// want: (.*)\nfunc (Fuzz\w+)`)
	cases := re.FindAllStringSubmatch(string(src), -1)
	if len(cases) < 8 {
		t.Fatalf("found %d fuzz targets", len(cases))
	}
	sm := vm.New(prog, vm.Options{Symbolic: true})
	for _, c := range cases {
		want, name := c[1], c[2]
		t.Run(name, func(t *testing.T) {
			e, err := sm.FindEntry(name)
			if err != nil {
				t.Fatal(err)
			}
			final, choices, n := symDFS(sm, e, 20000)
			if want == "none" {
				if final != nil {
					t.Fatalf("found %s: %s", final.Err().Kind, final.Err().Msg)
				}
				if n >= 20000 {
					t.Fatalf("state space not exhausted in %d states", n)
				}
				return
			}
			if final == nil {
				t.Fatalf("no error in %d states", n)
			}
			got := string(final.Err().Kind) + ": " + final.Err().Msg
			if kind, msg, _ := strings.Cut(want, ": "); string(final.Err().Kind) != kind || !strings.Contains(final.Err().Msg, msg) {
				t.Fatalf("got %q, want %q", got, want)
			}
			if calls, _ := final.SolverStats(); calls == 0 {
				t.Errorf("no solver calls")
			}
			inputs, concrete, err := trace.Concretize(sm, e, choices)
			if err != nil || inputs == nil {
				t.Fatalf("concretize: %v (inputs %v)", err, inputs)
			}
			cm := vm.New(prog, vm.Options{Inputs: inputs})
			s, _, err := trace.Replay(cm, e, concrete, nil)
			if err != nil {
				t.Fatalf("concrete replay with %v: %v", inputs, err)
			}
			if s.Err() == nil || s.Err().Msg != final.Err().Msg {
				t.Fatalf("concrete replay with %v: got %v, want %s", inputs, s.Err(), final.Err().Msg)
			}
			if calls, _ := s.SolverStats(); calls != 0 {
				t.Errorf("concrete replay called the solver")
			}
			t.Logf("%s with %v after %d states (path condition %v)", want, inputs, n, final.PathCondition())
		})
	}
}

// TestSymbolicStates: a data choice offers both sides of a branch on an
// input, the two successors hash differently (the path condition is part
// of the state), and runs without symbolic inputs never use the solver.
func TestSymbolicStates(t *testing.T) {
	prog, err := symProg()
	if err != nil {
		t.Fatal(err)
	}
	sm := vm.New(prog, vm.Options{Symbolic: true})
	e, _ := sm.FindEntry("FuzzArith")
	s := sm.Start(e)
	var prev *vm.State
	for len(s.Choices()) > 0 && s.Choices()[0].Kind != vm.ChooseBranch {
		prev, s = s, sm.Step(s, 0)
	}
	cs := s.Choices()
	if len(cs) != 2 || cs[0].Branch != 1 || cs[1].Branch != 0 {
		t.Fatalf("want a data choice (true, false), got %+v", cs)
	}
	// the transition that met the branch, at a deadline already past: its
	// solver check answers nothing and the transition is cut there, as a
	// long computation is, not reported unsupported (session.deadline)
	a, b := sm.Step(s, 0), sm.Step(s, 1)
	if cut := sm.StepWithin(prev, 0, 1); !cut.Cut() || cut.Err() != nil {
		t.Errorf("a transition deciding a branch after its deadline: cut %v, error %v", cut.Cut(), cut.Err())
	}
	// the states of that run (one solver session) still give their
	// inputs: the past deadline was the transition's, not theirs
	if a.Inputs() == nil {
		t.Errorf("no inputs after a cut transition")
	}
	if a.Hash() == b.Hash() || a.Hash() == s.Hash() {
		t.Errorf("branch successors hash alike")
	}
	if len(a.PathCondition()) != 1 || len(b.PathCondition()) != 1 {
		t.Errorf("path conditions %v / %v", a.PathCondition(), b.PathCondition())
	}

	// concrete: the seed, no choices beyond the schedule, no solver
	cm := vm.New(prog, vm.Options{})
	final, _, _ := trace.RandomRun(cm, e, 1, 1e5, nil)
	if final.Err() != nil || final.Inputs() != nil {
		t.Errorf("seed run: %v, inputs %v", final.Err(), final.Inputs())
	}
	if calls, _ := final.SolverStats(); calls != 0 {
		t.Errorf("seed run called the solver")
	}
	// a main entry under Options.Symbolic has no symbolic inputs
	mm, me := machine(t, "pingpong", vm.Options{Symbolic: true, Args: []string{"3"}})
	f, _, _ := trace.RandomRun(mm, me, 1, 1e6, nil)
	if calls, _ := f.SolverStats(); calls != 0 || f.Inputs() != nil {
		t.Errorf("main entry used the solver")
	}
}
