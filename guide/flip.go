package guide

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/gmc-go/gmc/heuristics"
	"github.com/gmc-go/gmc/vm"
	"github.com/gmc-go/gmc/vm/load"
	"github.com/gmc-go/gmc/vm/loc"
)

// Race flipping (issue 19, after Sen's RaceFuzzer): a data race is an
// error, but whether it can break anything is a question of its own. Flip
// runs the race's two accesses in both orders and searches on from each
// toward a failure (panic, failed assertion, deadlock, leak), with races no
// longer errors so that the continuation does not stop at the same race:
//
//   - "as found": the counterexample's own order (the previous access,
//     then the current one): its schedule replayed past the race.
//   - "flipped": the counterexample's schedule up to the transition of the
//     previous access; from there the goroutine that made it is postponed
//     while the others follow the counterexample's schedule (a goroutine
//     whose recorded step is no longer enabled is postponed as well) until
//     the current access has run; then every goroutine may run. The
//     previous goroutine stands before its access, so every continuation
//     makes it after the current one. A postponed goroutine counts as
//     blocked for the clock: when a recorded step waits for a timer and
//     every goroutine that could run is postponed, the earliest timer
//     fires (a ChooseTimer choice, vm.Options.TimerChoiceDepth covering
//     the set-up only). That is a real run: the OS may delay a goroutine
//     for as long as it likes, and no timer fires before its time; under
//     virtual time alone the postponed goroutine, runnable, would keep
//     the clock still, and a race ordered by a sleep could not be flipped.
//
// From each order the continuation is the bounded exhaustive search (DPOR
// with sleep sets alternating with iterated preemption bounding, as gmc
// check's portfolio), then the guided search along the abstract trace sets
// toward panic sites and analyzer warnings (the plan of a check without
// targets). A failure in either order makes the race harmful, with a
// counterexample (prefix and continuation) that replays, on a machine
// without race detection, to that failure; both continuations ending with
// a no-error verdict make it benign (under the weaker of the two bounds);
// anything else leaves it unknown (FlipResult.Harmful nil).

// FlipConfig configures the flipping of one race.
type FlipConfig struct {
	// Options are the options the race was found with, concrete (the
	// inputs of a fuzz target fixed, not symbolic).
	Options vm.Options
	Entry   vm.Entry
	// Choices is the counterexample whose last transition made the race.
	Choices []int
	// Race is the race (vm.KindRace): its Goroutines are the current
	// access first, the previous access second.
	Race      *vm.Error
	Heuristic heuristics.Secondary
	// Check is the check that found the race: the continuations follow its
	// abstract trace sets (nil, or a check that had none: the bounded
	// exhaustive search alone).
	Check    *CheckResult
	Seed     uint64
	MaxDepth int
	// TimeLimit is the budget of the whole flip (both orders).
	TimeLimit time.Duration
}

// Flip orders.
const (
	OrderAsFound = "as found" // previous access, then current
	OrderFlipped = "flipped"  // current access, then previous
)

// FlipOrder is the outcome of one order of a race's accesses.
type FlipOrder struct {
	Order string // OrderAsFound or OrderFlipped
	// Skipped says why the order could not be set up ("" when it ran).
	Skipped string
	// Verdict of the continuation: error (a failure after the race),
	// no-error (Exhausted, else up to Preemptions), unknown.
	Verdict     string
	Exhausted   bool
	Preemptions int
	// Choices lead from the initial state to Final, the failure (error).
	Choices []int
	Final   *vm.State
	States  int
	// Machine is the machine the order ran on (Choices replay on it): the
	// race's options without race detection, with timer choices in the
	// set-up of a flipped order that needed the clock to advance.
	Machine *vm.Machine
}

// FlipResult is the outcome of flipping a race.
type FlipResult struct {
	// Harmful: true when an order fails, false when neither order can
	// fail (within Bound), nil when unknown (an order skipped or cut).
	Harmful *bool
	// Failure is the failing order (Harmful true).
	Failure *FlipOrder
	Orders  []FlipOrder
	States  int
	// Exhausted and Preemptions are the bound of a false Harmful: both
	// spaces exhausted, else every schedule with at most Preemptions
	// preemptions in each.
	Exhausted   bool
	Preemptions int
}

// flipOrders is the shared setup of both orders: the counterexample
// translated to a machine without race detection on which the race's two
// accesses are scheduling points (breakpoints), so that each starts a
// transition of its own.
type flipOrders struct {
	m      *vm.Machine
	prog   *load.Program
	states []*vm.State // states[i] is the state before step i; the last one after every step
	steps  []vm.Choice // steps[i] is the choice of states[i] taken
	idx    []int       // idx[i] is its index
	orig   []int       // orig[i] is the counterexample's step that step i belongs to
	cfg    *FlipConfig
	// timerFired: the last follow fired a timer
	timerFired bool
}

// Flip runs cfg.Race's accesses in both orders and searches on from each
// for a failure (see the comment at the top of this file).
func Flip(ctx context.Context, prog *load.Program, cfg FlipConfig) (*FlipResult, error) {
	if cfg.Race == nil || cfg.Race.Kind != vm.KindRace || len(cfg.Race.Goroutines) < 2 || len(cfg.Choices) == 0 {
		return nil, fmt.Errorf("flip: not a race")
	}
	start := time.Now()
	// the counterexample's own machine: race detection changes the
	// scheduling points (a goroutine's closure is shared when it starts,
	// so len of a channel it holds is one), so its choices replay on
	// nothing else
	orig := vm.New(prog, cfg.Options)
	o := cfg.Options
	o.Breakpoints = append(append([]loc.Loc(nil), o.Breakpoints...), cfg.Race.Goroutines[0].Loc, cfg.Race.Goroutines[1].Loc)
	o.Sched = vm.SchedShared // every shared access a scheduling point (a superset of the counterexample's)
	ro := vm.New(prog, o)    // the flip's machine with race detection, for the translation
	o.Checks.Race = false
	o.RaceAt = nil
	fo := &flipOrders{m: vm.New(prog, o), prog: prog, cfg: &cfg}
	if err := fo.translate(orig, ro); err != nil {
		return nil, err
	}
	res := &FlipResult{}
	var pl *plan
	if cfg.Check != nil {
		pl = cfg.Check.plan
	}
	deadline := start.Add(cfg.TimeLimit)
	for _, order := range []string{OrderAsFound, OrderFlipped} {
		var fr FlipOrder
		m, root, prefix, why := fo.setUp(order)
		switch {
		case why != "":
			fr = FlipOrder{Order: order, Skipped: why, Verdict: VerdictUnknown}
		case root.Err() != nil:
			fr = FlipOrder{Order: order, Verdict: VerdictError, Choices: prefix, Final: root}
		default:
			// each order gets half of what is left when it starts
			left := time.Until(deadline)
			if order == OrderAsFound {
				left /= 2
			}
			fr = fo.continueFrom(ctx, pl, m, order, root, prefix, max(left, time.Millisecond))
		}
		fr.Machine = m
		if fr.Verdict == VerdictError && !failure(fr.Final.Err()) {
			// unsupported feature or internal error: no answer
			fr.Verdict = VerdictUnknown
			fr.Skipped = fmt.Sprintf("the order ends in %s at %s: %s", fr.Final.Err().Kind, fr.Final.Err().Pos, firstLineOf(fr.Final.Err().Msg))
		}
		if fr.Verdict == VerdictError {
			if e := replayTo(m, cfg.Entry, fr.Choices); e == nil || e.Msg != fr.Final.Err().Msg {
				return nil, fmt.Errorf("flip: internal error: the %s order's counterexample does not replay to %q", fr.Order, fr.Final.Err().Msg)
			}
		}
		res.States += fr.States
		res.Orders = append(res.Orders, fr)
		if fr.Verdict == VerdictError {
			t := true
			res.Harmful, res.Failure = &t, &res.Orders[len(res.Orders)-1]
			return res, nil
		}
	}
	res.Exhausted, res.Preemptions = true, -1
	for _, fr := range res.Orders {
		if fr.Verdict != VerdictNoError {
			return res, nil // unknown
		}
		if !fr.Exhausted {
			res.Exhausted = false
			if res.Preemptions < 0 || fr.Preemptions < res.Preemptions {
				res.Preemptions = fr.Preemptions
			}
		}
	}
	f := false
	res.Harmful = &f
	return res, nil
}

// maxSubsteps bounds the transitions of the flip's machine that one
// transition of the counterexample becomes.
const maxSubsteps = 10000

// translate replays the counterexample on orig (the machine that found
// it) and takes the same steps on ro (the flip's machine with race
// detection): each transition of a goroutine there is one or more of its
// transitions on ro, up to where the goroutine stands (its stack) after
// the original one; the last, up to the race, which must be the same.
// Then the steps are replayed on fo.m, without race detection.
func (fo *flipOrders) translate(orig, ro *vm.Machine) error {
	so := orig.Start(fo.cfg.Entry)
	s := ro.Start(fo.cfg.Entry)
	take := func(j, i int) {
		fo.steps = append(fo.steps, s.Choices()[j])
		fo.idx = append(fo.idx, j)
		fo.orig = append(fo.orig, i)
		s = ro.Step(s, j)
	}
	last := len(fo.cfg.Choices) - 1
	for i, c := range fo.cfg.Choices {
		cs := so.Choices()
		if c < 0 || c >= len(cs) {
			return fmt.Errorf("flip: the race's counterexample diverged on replay at step %d", i+1)
		}
		want := cs[c]
		so = orig.Step(so, c)
		if so.Err() != nil && i < last {
			return fmt.Errorf("flip: the race's counterexample failed before the race: %s", so.Err().Msg)
		}
		j := timerChoice(s)
		if want.Kind != vm.ChooseTimer {
			j = matchChoice(s, want)
		}
		if j < 0 {
			return fmt.Errorf("flip: step %d of the race's counterexample has no counterpart", i+1)
		}
		take(j, i)
		if want.Kind != vm.ChooseTimer {
			end, endStatus := so.Stack(want.G), statusOf(so, want.G)
			done := func() bool {
				if i == last { // up to the race
					return false
				}
				return sameStack(s.Stack(want.G), end) && statusOf(s, want.G) == endStatus
			}
			for n := 0; s.Err() == nil && !done(); n++ {
				j := goroutineChoice(s, want.G)
				if j < 0 || n == maxSubsteps {
					return fmt.Errorf("flip: step %d of the race's counterexample has no counterpart", i+1)
				}
				take(j, i)
			}
		}
		switch e := s.Err(); {
		case e == nil:
		case e.Msg != fo.cfg.Race.Msg:
			return fmt.Errorf("flip: with its accesses as scheduling points the run makes another error first (%s at %s)", e.Kind, e.Pos)
		case i < last:
			return fmt.Errorf("flip: with its accesses as scheduling points the race comes before its transition (step %d of %d)", i+1, last+1)
		}
	}
	if s.Err() == nil {
		return fmt.Errorf("flip: the race does not recur with its accesses as scheduling points")
	}
	// the same steps without race detection
	s = fo.m.Start(fo.cfg.Entry)
	for n, j := range fo.idx {
		if j >= s.NumChoices() {
			return fmt.Errorf("flip: internal error: the translation diverges without race detection at step %d", n+1)
		}
		if c := s.Choices()[j]; c.G != fo.steps[n].G || c.Kind != fo.steps[n].Kind {
			return fmt.Errorf("flip: internal error: the translation diverges without race detection at step %d", n+1)
		}
		fo.states = append(fo.states, s)
		s = fo.m.Step(s, j)
	}
	fo.states = append(fo.states, s)
	return nil
}

// statusOf is goroutine g's status in s ("" when it has ended): a
// goroutine stopped before a blocking operation and one blocked in it
// stand at the same location.
func statusOf(s *vm.State, g int) string {
	for _, gi := range s.Goroutines() {
		if gi.ID == g {
			return gi.Status
		}
	}
	return ""
}

// sameStack reports whether two stacks are the same locations.
func sameStack(a, b []loc.Loc) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// replayTo runs choices on m until an error and returns it (nil when
// there is none, or when the choices diverge).
func replayTo(m *vm.Machine, e vm.Entry, choices []int) *vm.Error {
	s := m.Start(e)
	for _, i := range choices {
		if s.Err() != nil {
			break
		}
		if i < 0 || i >= s.NumChoices() {
			return nil
		}
		s = m.Step(s, i)
	}
	return s.Err()
}

// failure reports whether e is a failure of the program (not a limit of
// gmc's).
func failure(e *vm.Error) bool {
	return e != nil && e.Kind != vm.KindUnsupported && e.Kind != vm.KindInternal && e.Kind != vm.KindRace
}

// continueFrom searches on from root (reached by prefix) for a failure
// within limit: the bounded exhaustive search, then the guided search
// along each trace set of pl.
func (fo *flipOrders) continueFrom(ctx context.Context, pl *plan, m *vm.Machine, order string, root *vm.State, prefix []int, limit time.Duration) FlipOrder {
	start := time.Now()
	fr := FlipOrder{Order: order, Verdict: VerdictUnknown}
	found := func(r Result) FlipOrder {
		fr.Verdict, fr.Final = VerdictError, r.Final
		fr.Choices = append(append([]int(nil), prefix...), r.Choices...)
		return fr
	}
	// the exhaustive search gets half the time (all of it without a plan)
	exLimit := limit / 2
	if pl == nil || len(pl.sets) == 0 {
		exLimit = limit
	}
	se := newSearcher(ctx, m, Config{MaxDepth: fo.cfg.MaxDepth, TimeLimit: exLimit, Seed: fo.cfg.Seed})
	r := se.iterated(root)
	fr.States += r.Stats.States
	switch r.Verdict {
	case VerdictError:
		return found(r)
	case VerdictNoError:
		fr.Verdict, fr.Exhausted, fr.Preemptions = VerdictNoError, r.Exhausted, r.Preemptions
		if r.Exhausted {
			return fr
		}
	}
	if pl == nil {
		return fr
	}
	for _, ts := range pl.sets {
		left := limit - time.Since(start)
		if left <= 0 || ctx.Err() != nil {
			break
		}
		meta := &heuristics.Meta{TS: &ts, Sec: fo.cfg.Heuristic, Dist: pl.distance()}
		se := newSearcher(ctx, m, Config{Strategy: Guided, Seed: fo.cfg.Seed, MaxDepth: fo.cfg.MaxDepth,
			TimeLimit: left / time.Duration(max(1, len(pl.sets))), Ranker: meta})
		r := se.greedy(root)
		fr.States += r.Stats.States
		if r.Verdict == VerdictError && !r.Goal {
			return found(r)
		}
	}
	return fr
}

// firstLineOf is the first line of msg.
func firstLineOf(msg string) string {
	if i := strings.IndexByte(msg, '\n'); i >= 0 {
		return msg[:i]
	}
	return msg
}
