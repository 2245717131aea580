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
	"slices"
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
	// EntryGrace records vm.Options.EntryGrace: the run ended that many
	// transitions after the entry returned.
	EntryGrace int `json:"entry_grace,omitempty"`
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
	return Walk(m, e, WalkConfig{Seed: seed, MaxDepth: maxDepth}, obs)
}

// WalkConfig configures a random walk.
type WalkConfig struct {
	Seed     uint64
	MaxDepth int // transitions
	// Stay is the probability of running the goroutine that made the last
	// transition again when it can (one of its choices, uniformly), as Go's
	// scheduler runs a goroutine until it blocks, yields (runtime.Gosched)
	// or is preempted (a goroutine that executed a go statement always
	// runs again); otherwise
	// (and with Stay 0) the walk picks uniformly among all choices. A walk
	// over a thousand goroutines with Stay 0 rarely lets any one of them
	// run long.
	Stay float64
	// TimerRate is the probability of firing the pending timers when the
	// machine offers it (vm.Options.TimerChoice): real time passes at
	// about that rate per transition instead of the timer being one more
	// choice among the goroutines' (0), so that a 100ms sleep does not
	// usually end after a few steps.
	TimerRate float64
}

// stay decides whether a sticky walk runs the last goroutine again after
// it executed op: never after runtime.Gosched, always after a go
// statement (Go puts the new goroutine in runnext and the spawner runs on
// until it blocks), otherwise with probability p.
func stay(op string, p float64, rng *rand.Rand) bool {
	switch op {
	case "runtime.Gosched":
		return false
	case "go":
		return true
	}
	return rng.Float64() < p
}

// pick draws a choice among gids (the goroutine of each choice): uniformly,
// or one of the last goroutine's choices when the walk stays on it.
func pick(gids []int32, s *vm.State, cfg WalkConfig, d int, rng *rand.Rand) int {
	n := len(gids)
	i := rng.IntN(n)
	if cfg.Stay > 0 && d > 0 && stay(s.LastStep().Op, cfg.Stay, rng) {
		// the last goroutine's choices are consecutive (by id)
		last := int32(s.LastStep().G)
		lo, _ := slices.BinarySearch(gids, last)
		hi := lo
		for hi < n && gids[hi] == last {
			hi++
		}
		if last != 0 && lo < hi {
			i = lo + rng.IntN(hi-lo)
		}
	}
	return i
}

// Walk executes entry with a random scheduler (see WalkConfig). It stops
// at a terminal state or after cfg.MaxDepth transitions and returns the
// final state, the choice indexes taken and the steps.
func Walk(m *vm.Machine, e vm.Entry, cfg WalkConfig, obs Observer) (*vm.State, []int, []Step) {
	rng := rand.New(rand.NewPCG(cfg.Seed, cfg.Seed^0x9e3779b97f4a7c15))
	s := m.Start(e)
	var choices []int
	var steps []Step
	var gids []int32 // the goroutine of each choice
	for d := 0; d < cfg.MaxDepth; d++ {
		gids = s.AppendChoiceGoroutines(gids[:0])
		n := len(gids)
		if n == 0 {
			break
		}
		i := 0
		switch {
		case n == 1:
		case cfg.TimerRate > 0 && gids[n-1] == 0: // a timer choice (it comes last)
			if rng.Float64() < cfg.TimerRate {
				i = n - 1
				break
			}
			i = pick(gids[:n-1], s, cfg, d, rng)
		default:
			i = pick(gids, s, cfg, d, rng)
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
		if n := s.NumChoices(); i < 0 || i >= n {
			return s, steps, fmt.Errorf("trace diverged at step %d: choice %d of %d", k+1, i, n)
		}
		s = m.Step(s, i)
		steps = append(steps, StepOf(m, s))
		if obs != nil {
			obs(s)
		}
	}
	return s, steps, nil
}
