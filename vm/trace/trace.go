// Package trace records and replays executions of the VM.
//
// A run of a program under the VM is fully determined by the entry, the
// program arguments and its choice sequence (the index of the choice taken
// at each state, in vm.State.Choices order). A Trace stores exactly that,
// plus a readable list of steps; Replay re-executes a Trace and must reach
// the same final state (same error). Traces are the JSON "trace" object of
// the command-line contract (DESIGN §4), whose Report (report.go) carries
// the verdict: error, no-error, unknown, or skip (a test that skipped in
// every execution explored, with its log in Report.Skip).
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
	// OS records the values the run read from the operating system (its
	// environment, os.Executable, os.Getwd, os.Hostname: vm.OSInputs);
	// replay gives the program these values, whatever the replaying
	// host's are.
	OS *vm.OSInputs `json:"os,omitempty"`
	// Timing is the time model the run used (vm.Options.Timing:
	// "synctest", "step" with StepTime, "any" with TimerChoice); replay
	// runs under it. A trace without it (written before it existed) is
	// replayed under TimerChoice and StepTime as recorded, otherwise the
	// default model ("synctest"; a run whose timers fired because an
	// earlier VM let time pass once a goroutine had polled may then not
	// reproduce).
	Timing string `json:"timing,omitempty"`
	// TimerChoice records that timers could fire at any scheduling point
	// (vm.Options.TimerChoice, Timing "any"): the choices only replay
	// with it.
	TimerChoice bool `json:"timer_choice,omitempty"`
	// TimerChoiceDepth records vm.Options.TimerChoiceDepth: timers could
	// fire as a choice in the run's first TimerChoiceDepth transitions (a
	// race flip's set-up, which holds a goroutine while the clock
	// advances); the choices only replay with it.
	TimerChoiceDepth int `json:"timer_choice_depth,omitempty"`
	// EntryGrace records vm.Options.EntryGrace: the run ended that many
	// transitions after the entry returned.
	EntryGrace int `json:"entry_grace,omitempty"`
	// StepTime records vm.Options.StepTime (ns of real time per
	// transition).
	StepTime int64 `json:"step_time_ns,omitempty"`
	// Breakpoints are the extra scheduling points the run used (a guided
	// search's trace locations), as loc.Loc.String() forms; replay needs
	// them to cut transitions the same way.
	Breakpoints []string `json:"breakpoints,omitempty"`
	// Unreachable are the locations the run treated as unreachable
	// (vm.Options.Unreachable), in the form of Breakpoints.
	Unreachable []string `json:"unreachable,omitempty"`
	// RaceAt are the lines the run's race reports were restricted to
	// (vm.Options.RaceAt), in the form of Breakpoints.
	RaceAt []string `json:"race_at,omitempty"`
	// ReducedFor are the targets of the warning-specific reduction the run
	// used (vm.Options.ReducedFor; gmc confirm), in the form of
	// Breakpoints: replay computes the same reduction from them.
	ReducedFor []string `json:"reduced_for,omitempty"`
}

// BreakpointSpecs returns the breakpoints of a machine in Trace form.
func BreakpointSpecs(m *vm.Machine) []string { return LocSpecs(m.Options().Breakpoints) }

// UnreachableSpecs returns the unreachable locations of a machine in Trace
// form.
func UnreachableSpecs(m *vm.Machine) []string { return LocSpecs(m.Options().Unreachable) }

// RaceAtSpecs returns the race lines of a machine in Trace form.
func RaceAtSpecs(m *vm.Machine) []string { return LocSpecs(m.Options().RaceAt) }

// ReducedForSpecs returns the reduction targets of a machine in Trace form.
func ReducedForSpecs(m *vm.Machine) []string { return LocSpecs(m.Options().ReducedFor) }

// LocSpecs returns locations in Trace form (loc.Loc.String), sorted.
func LocSpecs(locs []loc.Loc) []string {
	var out []string
	for _, l := range locs {
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
	// runs again); when it does not stay, it runs the goroutine Go would
	// run next (vm.State.RunNext) with the same probability; otherwise
	// (and with Stay 0) the walk picks uniformly among all choices. A walk
	// over a thousand goroutines with Stay 0 rarely lets any one of them
	// run long.
	Stay float64
}

// keepRunning decides whether a sticky walk runs the last goroutine again
// after it executed op: never after runtime.Gosched, always after a go
// statement (Go puts the new goroutine in runnext and the spawner runs on
// until it blocks), otherwise with probability p.
func keepRunning(op string, p float64, rng *rand.Rand) bool {
	switch op {
	case "runtime.Gosched":
		return false
	case "go":
		return true
	}
	return rng.Float64() < p
}

// Sticky draws a choice of s as a sticky walk does (WalkConfig.Stay):
// gids is s.AppendChoiceGoroutines. With probability stay it runs the
// goroutine of the last transition again (never after Gosched, always
// after a go statement); otherwise, with the same probability, the
// runnext goroutine (vm.State.RunNext); otherwise any choice, uniformly.
func Sticky(s *vm.State, gids []int32, stay float64, rng *rand.Rand) int {
	i := rng.IntN(len(gids))
	if stay <= 0 {
		return i
	}
	if last := s.LastStep(); keepRunning(last.Op, stay, rng) {
		if lo, hi := choicesOf(gids, last.G); lo < hi {
			return lo + rng.IntN(hi-lo)
		}
	}
	if rn := s.RunNext(); rn != 0 && rng.Float64() < stay {
		if lo, hi := choicesOf(gids, rn); lo < hi {
			return lo + rng.IntN(hi-lo)
		}
	}
	return i
}

// Newest draws a choice of s for a cooperative, newest-first scheduler:
// the goroutine of the last transition runs on until it blocks, ends or
// yields (runtime.Gosched); then the enabled goroutine started last runs,
// as if each new goroutine had a priority just below its parent's. One of
// the goroutine's choices is drawn uniformly, and with probability eps
// any choice is. gids is s.AppendChoiceGoroutines. With eps 0 this is one
// deterministic schedule that runs a goroutine and what it starts through
// before the goroutines started earlier: a producer's loop of 10⁵
// iterations ends long before its siblings run.
func Newest(s *vm.State, gids []int32, eps float64, rng *rand.Rand) int {
	if eps > 0 && rng.Float64() < eps {
		return rng.IntN(len(gids))
	}
	g := 0
	if last := s.LastStep(); last.Op != "runtime.Gosched" {
		g = last.G
	}
	lo, hi := choicesOf(gids, g)
	if lo == hi {
		n := len(gids)
		if gids[n-1] == 0 { // a timer choice comes last
			n--
		}
		if n == 0 {
			return 0
		}
		lo, hi = choicesOf(gids, int(gids[n-1]))
	}
	return lo + rng.IntN(hi-lo)
}

// choicesOf returns the range of goroutine g's choices in gids (they are
// consecutive, by id; a timer choice, 0, comes last).
func choicesOf(gids []int32, g int) (lo, hi int) {
	if g == 0 {
		return 0, 0
	}
	if n := len(gids); n > 0 && gids[n-1] == 0 {
		gids = gids[:n-1]
	}
	lo, _ = slices.BinarySearch(gids, int32(g))
	hi = lo
	for hi < len(gids) && gids[hi] == int32(g) {
		hi++
	}
	return lo, hi
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
		if n > 1 {
			i = Sticky(s, gids, cfg.Stay, rng)
		}
		choices = append(choices, i)
		s = m.StepAmong(s, i, gids)
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
