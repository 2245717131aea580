// Package trace records and replays executions of the VM.
//
// A run of a program under the VM is fully determined by the entry, the
// program arguments and its choice sequence (the index of the choice taken
// at each state, in vm.State.Choices order). A Trace stores exactly that,
// plus a readable list of steps; Replay re-executes a Trace and must reach
// the same final state (same error). Traces are the JSON "trace" object of
// the command-line contract (DESIGN §4).
package trace

import (
	"fmt"
	"math/rand/v2"
	"sort"
	"strings"

	"golang.org/x/tools/go/ssa"
	"golang.org/x/tools/go/ssa/ssautil"

	"github.com/gmc-go/gmc/vm"
	"github.com/gmc-go/gmc/vm/load"
	"github.com/gmc-go/gmc/vm/loc"
)

// Trace is a recorded execution.
type Trace struct {
	Pkg     string         `json:"pkg"`
	Dir     string         `json:"dir,omitempty"`
	Entry   string         `json:"entry"`
	Args    []string       `json:"args"`
	Seed    uint64         `json:"seed"`
	Sched   string         `json:"sched,omitempty"`
	Checks  []string       `json:"checks,omitempty"`
	Choices []int          `json:"choices"`
	Steps   []Step         `json:"steps"`
	Inputs  map[string]any `json:"inputs,omitempty"`
	// TimerChoice records that timers could fire at any scheduling point
	// (vm.Options.TimerChoice): the choices only replay with it.
	TimerChoice bool `json:"timer_choice,omitempty"`
	// Breakpoints are the extra scheduling points the run used (a guided
	// search's trace locations), as loc.Loc.String() forms; replay needs
	// them to cut transitions the same way.
	Breakpoints []string `json:"breakpoints,omitempty"`
}

// BreakpointSpecs returns the breakpoints of a machine in Trace form.
func BreakpointSpecs(m *vm.Machine) []string {
	var out []string
	for _, l := range m.Options().Breakpoints {
		out = append(out, l.String())
	}
	sort.Strings(out)
	return out
}

// ResolveBreakpoints turns Trace.Breakpoints back into locations of prog.
func ResolveBreakpoints(prog *load.Program, specs []string) ([]loc.Loc, error) {
	if len(specs) == 0 {
		return nil, nil
	}
	// A package and its test variant have functions of the same name;
	// the breakpoint goes on each (the run uses one of them).
	byName := map[string][]*ssa.Function{}
	for fn := range ssautil.AllFunctions(prog.SSA) {
		byName[fn.String()] = append(byName[fn.String()], fn)
	}
	var out []loc.Loc
	for _, sp := range specs {
		i := strings.LastIndexByte(sp, '#')
		if i < 0 {
			return nil, fmt.Errorf("bad breakpoint %q", sp)
		}
		fns := byName[sp[:i]]
		var b, k int
		if _, err := fmt.Sscanf(sp[i+1:], "%d.%d", &b, &k); err != nil || len(fns) == 0 {
			return nil, fmt.Errorf("breakpoint %q does not match the program", sp)
		}
		for _, fn := range fns {
			out = append(out, loc.Loc{Fn: fn, Block: b, Index: k})
		}
	}
	return out, nil
}

// Step is one transition of a trace: the goroutine that ran, where it
// started, and the visible operation it executed.
type Step struct {
	G   int    `json:"g"`
	Pos string `json:"pos"`
	Op  string `json:"op"`
}

// StepOf describes the transition that produced s.
func StepOf(m *vm.Machine, s *vm.State) Step {
	st := s.LastStep()
	return Step{G: st.G, Pos: m.Position(st.Loc), Op: st.Op}
}

// Observer is called after every transition of a run.
type Observer func(s *vm.State)

// RandomRun executes entry with a scheduler that picks uniformly among the
// enabled choices using a PCG generator seeded with seed. It stops at a
// terminal state or after maxDepth transitions.
func RandomRun(m *vm.Machine, e vm.Entry, seed uint64, maxDepth int, obs Observer) (*vm.State, []int, []Step) {
	rng := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	s := m.Start(e)
	var choices []int
	var steps []Step
	for d := 0; d < maxDepth; d++ {
		cs := s.Choices()
		if len(cs) == 0 {
			break
		}
		i := 0
		if len(cs) > 1 {
			i = rng.IntN(len(cs))
		}
		choices = append(choices, i)
		s = m.Step(s, i)
		steps = append(steps, StepOf(m, s))
		if obs != nil {
			obs(s)
		}
	}
	return s, choices, steps
}

// Replay re-executes a choice sequence from the initial state of entry. It
// fails if a recorded choice is not available (the program diverged).
func Replay(m *vm.Machine, e vm.Entry, choices []int, obs Observer) (*vm.State, []Step, error) {
	s := m.Start(e)
	var steps []Step
	for k, i := range choices {
		cs := s.Choices()
		if i < 0 || i >= len(cs) {
			return s, steps, fmt.Errorf("trace diverged at step %d: choice %d of %d", k+1, i, len(cs))
		}
		s = m.Step(s, i)
		steps = append(steps, StepOf(m, s))
		if obs != nil {
			obs(s)
		}
	}
	return s, steps, nil
}
