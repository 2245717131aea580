package guide

import (
	"fmt"
	"math"

	"github.com/gmc-go/gmc/vm"
)

// The set-up of a race flip's two orders (see flip.go): from the
// translated counterexample, the state before the previous access, then
// the recorded steps of the other goroutines with the postponed ones held.

// setUp returns the machine and state an order's continuation starts
// from and the choices that lead to it, or why the order cannot be set up.
func (fo *flipOrders) setUp(order string) (*vm.Machine, *vm.State, []int, string) {
	n := len(fo.steps)
	cur, prev := fo.cfg.Race.Goroutines[0], fo.cfg.Race.Goroutines[1]
	last := len(fo.cfg.Choices) - 1
	// the transition of the current access: its goroutine's, starting at
	// it, in the counterexample's last transition; the previous access's:
	// the last of its goroutine that starts at it before
	c := -1
	for i := n - 1; i >= 0 && fo.orig[i] == last; i-- {
		if st := fo.steps[i]; st.G == cur.ID && st.Loc == cur.Loc {
			c = i
		}
	}
	if c < 0 {
		return nil, nil, nil, fmt.Sprintf("goroutine %d's access at %s is not in the race's transition", cur.ID, fo.m.Position(cur.Loc))
	}
	k := -1
	for i := c - 1; i >= 0; i-- {
		if st := fo.steps[i]; st.G == prev.ID && st.Kind != vm.ChooseTimer && st.Loc == prev.Loc {
			k = i
			break
		}
	}
	if k < 0 {
		return nil, nil, nil, fmt.Sprintf("goroutine %d's access at %s is not found before the race", prev.ID, fo.m.Position(prev.Loc))
	}
	if order == OrderAsFound { // the previous access first
		s := fo.m.Step(fo.states[k], fo.idx[k])
		prefix := append(append([]int(nil), fo.idx[:k]...), fo.idx[k])
		if s.Err() != nil {
			return fo.m, s, prefix, ""
		}
		s, prefix, why := fo.follow(fo.m, s, prefix, k+1, c, map[int]bool{prev.ID: true}, false)
		if why != "" {
			// the current goroutine needs the previous one's later
			// steps: the schedule as recorded, up to the current access
			return fo.m, fo.states[c+1], append([]int(nil), fo.idx[:c+1]...), ""
		}
		return fo.m, s, prefix, ""
	}
	// flipped: under virtual time, then, if the current goroutine cannot
	// reach its access so, with the postponed goroutines counted as
	// blocked for the clock: on a machine whose every state offers the
	// timer choice (the goroutines' choices keep their indices: the
	// timer's comes last), then, if a timer fired, on one that offers it
	// in the set-up only
	prefix := append([]int(nil), fo.idx[:k]...)
	s, p, why := fo.follow(fo.m, fo.states[k], prefix, k+1, c, map[int]bool{prev.ID: true}, false)
	if why == "" {
		return fo.m, s, p, ""
	}
	tm := fo.timed(math.MaxInt)
	if s = replayOn(tm, fo.cfg.Entry, prefix); s == nil {
		return nil, nil, nil, "the counterexample does not replay with timer choices"
	}
	s, prefix, why = fo.follow(tm, s, prefix, k+1, c, map[int]bool{prev.ID: true}, true)
	switch {
	case why != "":
		return nil, nil, nil, why
	case !fo.timerFired:
		return nil, nil, nil, "the flipped set-up differs with timer choices but fired none" // (cannot happen)
	}
	m := fo.timed(len(prefix))
	if s = replayOn(m, fo.cfg.Entry, prefix); s == nil {
		return nil, nil, nil, "the flipped set-up does not replay with timer choices in it only"
	}
	return m, s, prefix, ""
}

// follow runs the counterexample's recorded steps from..to (fo.steps) on
// m from s, reached by prefix, with the goroutines of postponed held
// before their next step: a goroutine whose recorded step is not enabled
// is postponed too. With timers, a recorded step that waits while every
// goroutine that could run is postponed lets the earliest timer fire
// first (the postponed goroutines delayed: see the top of the file). It
// stops at a failure, or says why the current goroutine cannot take its
// recorded step.
func (fo *flipOrders) follow(m *vm.Machine, s *vm.State, prefix []int, from, to int, postponed map[int]bool, timers bool) (*vm.State, []int, string) {
	cur, prev := fo.cfg.Race.Goroutines[0], fo.cfg.Race.Goroutines[1]
	fo.timerFired = false
	for i := from; i <= to; i++ {
		want := fo.steps[i]
		if want.Kind == vm.ChooseTimer {
			if j := timerChoice(s); j >= 0 {
				s = m.Step(s, j)
				prefix = append(prefix, j)
			}
			continue
		}
		if postponed[want.G] {
			continue
		}
		j := matchChoice(s, want)
		for j < 0 && timers && onlyPostponed(s, postponed) {
			t := timerChoice(s)
			if t < 0 {
				break
			}
			s = m.Step(s, t)
			prefix = append(prefix, t)
			fo.timerFired = true
			if s.Err() != nil {
				return s, prefix, ""
			}
			j = matchChoice(s, want)
		}
		if j >= 0 && i == to && s.Choices()[j].Loc != want.Loc {
			j = -1 // the current goroutine is elsewhere: not its access
		}
		if j < 0 {
			if want.G == cur.ID {
				return nil, nil, fmt.Sprintf("goroutine %d cannot reach its access at %s while goroutine %d waits", cur.ID, m.Position(cur.Loc), prev.ID)
			}
			postponed[want.G] = true
			continue
		}
		s = m.Step(s, j)
		prefix = append(prefix, j)
		if s.Err() != nil {
			return s, prefix, "" // a failure before the current access ran
		}
	}
	return s, prefix, ""
}

// onlyPostponed reports whether every choice of s is a postponed
// goroutine's or the timer's.
func onlyPostponed(s *vm.State, postponed map[int]bool) bool {
	for _, c := range s.Choices() {
		if c.Kind != vm.ChooseTimer && !postponed[c.G] {
			return false
		}
	}
	return true
}

// timed returns the flip's machine with timer choices in the states of
// depth below depth (vm.Options.TimerChoiceDepth).
func (fo *flipOrders) timed(depth int) *vm.Machine {
	o := fo.m.Options()
	o.TimerChoiceDepth = depth
	return vm.New(fo.prog, o)
}

// replayOn runs choices on m and returns the state they lead to (nil when
// they diverge).
func replayOn(m *vm.Machine, e vm.Entry, choices []int) *vm.State {
	s := m.Start(e)
	for _, i := range choices {
		if i < 0 || i >= s.NumChoices() {
			return nil
		}
		s = m.Step(s, i)
	}
	return s
}

// matchChoice returns the index of the choice of s that takes the same
// step as want (goroutine, kind, select case, branch side), or -1.
func matchChoice(s *vm.State, want vm.Choice) int {
	for j, c := range s.Choices() {
		if c.G == want.G && c.Kind == want.Kind && c.Case == want.Case && c.Branch == want.Branch {
			return j
		}
	}
	return -1
}

// goroutineChoice returns the index of the choice of s that runs goroutine
// g on, or -1.
func goroutineChoice(s *vm.State, g int) int {
	for j, c := range s.Choices() {
		if c.G == g && c.Kind == vm.ChooseGoroutine {
			return j
		}
	}
	return -1
}

// timerChoice returns the index of s's timer choice, or -1.
func timerChoice(s *vm.State) int {
	for j, c := range s.Choices() {
		if c.Kind == vm.ChooseTimer {
			return j
		}
	}
	return -1
}
