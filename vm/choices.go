package vm

import "sync"

// Enumerating the choices of a state: the full list for searches, and a
// count, one choice or the goroutine of each choice without building the
// list, for random walks over thousands of goroutines.

// Choices returns the enabled choices, in a deterministic order (by
// goroutine id, then case). It is empty iff the state is terminal.
func (s *State) Choices() []Choice {
	if s.choices != nil || s.err != nil || s.exited {
		return s.choices
	}
	buf := choiceBufs.Get().(*[]Choice)
	l := (*buf)[:0]
	s.eachChoice(func(g *goroutine, kind ChoiceKind, cas int) bool {
		l = append(l, s.makeChoice(g, kind, cas))
		return true
	})
	cs := append(make([]Choice, 0, len(l)), l...) // the list kept: its size exactly
	*buf = l[:0]
	choiceBufs.Put(buf)
	s.choices = cs
	return cs
}

// DropChoices forgets the list Choices built (Choices builds the same
// list again when asked): a depth-first search keeps the states of its
// path, and with thousands of goroutines their lists are most of its
// memory.
func (s *State) DropChoices() {
	if s.err == nil && !s.exited {
		s.choices = nil
	}
}

// choiceBufs holds buffers in which Choices lists a state's choices
// before it knows how many there are (thousands with thousands of
// goroutines).
var choiceBufs = sync.Pool{New: func() any { return new([]Choice) }}

// NumChoices returns len(s.Choices()) without building the list (a
// random walk over thousands of goroutines needs only the count and the
// one choice it takes).
func (s *State) NumChoices() int {
	if s.choices != nil || s.err != nil || s.exited {
		return len(s.choices)
	}
	n := 0
	s.eachChoice(func(*goroutine, ChoiceKind, int) bool {
		n++
		return true
	})
	return n
}

// hasChoices reports whether s has at least n choices, without building
// the list: the goroutines are counted newest first (a newest-first walk
// runs the newest) and the count stops at n.
func (s *State) hasChoices(n int) bool {
	if s.choices != nil || s.err != nil || s.exited {
		return len(s.choices) >= n
	}
	if s.data != nil && s.data.pending != nil {
		return n <= 2 // the two sides of a branch
	}
	k, someEnabled := 0, false
	for g := range s.gs.backward() {
		if !s.enabled(g) {
			continue
		}
		someEnabled = true
		c := 1
		if g.status == gRunnable && g.wake == nil {
			var buf [8]int
			if ready := s.m.readySelectCases(buf[:0], s, g); len(ready) > 1 {
				c = len(ready)
			}
		}
		if k += c; k >= n {
			return true
		}
	}
	if someEnabled && s.timerChoice() {
		k++
	}
	return k >= n
}

// AppendChoiceGoroutines appends to buf, for each choice of Choices() in
// order, the id of its goroutine (0 for a timer choice) and returns it: a
// random walk over thousands of goroutines draws its choice from this
// compact list (reusing buf) instead of building the choices.
func (s *State) AppendChoiceGoroutines(buf []int32) []int32 {
	if s.choices != nil || s.err != nil || s.exited {
		for _, c := range s.choices {
			buf = append(buf, int32(c.G))
		}
		return buf
	}
	s.eachChoice(func(g *goroutine, _ ChoiceKind, _ int) bool {
		id := int32(0)
		if g != nil {
			id = int32(g.id)
		}
		buf = append(buf, id)
		return true
	})
	return buf
}

// choice returns Choices()[i] without building the list.
func (s *State) choice(i int) Choice {
	if s.choices != nil || s.err != nil || s.exited {
		return s.choices[i]
	}
	k := 0
	var c Choice
	s.eachChoice(func(g *goroutine, kind ChoiceKind, cas int) bool {
		if k < i {
			k++
			return true
		}
		c = s.makeChoice(g, kind, cas)
		k++
		return false
	})
	if k <= i {
		panic("vm: choice index out of range")
	}
	return c
}

// choiceAmong returns Choices()[i], where gids is
// s.AppendChoiceGoroutines: the goroutine of choice i and its rank among
// that goroutine's choices (which are consecutive) decide it.
func (s *State) choiceAmong(i int, gids []int32) Choice {
	if s.choices != nil || s.err != nil || s.exited {
		return s.choices[i]
	}
	id := gids[i]
	k := 0 // the rank of choice i among its goroutine's
	for j := i - 1; j >= 0 && gids[j] == id; j-- {
		k++
	}
	if id == 0 {
		return s.makeChoice(nil, ChooseTimer, -1)
	}
	g := s.getG(int(id))
	if s.data != nil && s.data.pending != nil {
		return s.makeChoice(g, ChooseBranch, []int{1, 0}[k])
	}
	if g.status == gRunnable && g.wake == nil {
		var buf [8]int
		if ready := s.m.readySelectCases(buf[:0], s, g); len(ready) > 1 {
			return s.makeChoice(g, ChooseSelectCase, ready[k])
		}
	}
	return s.makeChoice(g, ChooseGoroutine, -1)
}

// makeChoice builds the choice of goroutine g (nil for a timer choice).
func (s *State) makeChoice(g *goroutine, kind ChoiceKind, cas int) Choice {
	c := Choice{Kind: kind, Case: cas}
	if g != nil {
		c.G, c.Loc = g.id, g.loc()
	}
	if kind == ChooseBranch {
		c.Case, c.Branch = -1, cas
	}
	return c
}

// eachChoice calls f with the enabled choices in order (the goroutine, the
// kind, the select case or branch side) until f returns false.
func (s *State) eachChoice(f func(g *goroutine, kind ChoiceKind, cas int) bool) {
	if s.data != nil && s.data.pending != nil {
		g := s.getG(s.data.pending.g)
		for _, side := range []int{1, 0} {
			if !f(g, ChooseBranch, side) {
				return
			}
		}
		return
	}
	someEnabled := false
	for g := range s.gs.all() {
		if !s.enabled(g) {
			continue
		}
		someEnabled = true
		if g.status == gRunnable && g.wake == nil {
			var buf [8]int
			if ready := s.m.readySelectCases(buf[:0], s, g); len(ready) > 1 {
				for _, c := range ready {
					if !f(g, ChooseSelectCase, c) {
						return
					}
				}
				continue
			}
		}
		if !f(g, ChooseGoroutine, -1) {
			return
		}
	}
	if someEnabled && s.timerChoice() {
		f(nil, ChooseTimer, -1)
	}
}

// timerChoice reports whether s offers a ChooseTimer choice when some
// goroutine can run: a timer is pending, outside synctest bubbles, and
// timers may fire at any scheduling point (Options.TimerChoice) or at
// this depth (Options.TimerChoiceDepth).
func (s *State) timerChoice() bool {
	return len(s.timers) > 0 && s.bubbles == 0 && (s.m.opts.TimerChoice || s.depth < s.m.opts.TimerChoiceDepth)
}
