package vm

import (
	"go/types"
	"time"
)

// Solo runs of parallel subtests. When a test's function returns, its
// parallel subtests (t.Run + t.Parallel) are released together; a
// search that interleaves N of them that share nothing visits every
// subset of finished ones, 2^N states, where go test -race would run the
// table in a blink. A released subtest whose whole remaining life touches
// nothing another goroutine can reach is independent of everything else:
// every execution from the state is equivalent to one that runs it alone
// first, to its end, then the rest as it was (its operations commute
// with all others, and the others' operations cannot observe it). Solo
// decides that by running the goroutine alone from the state, as a
// persistent set of one goroutine decided by running ahead.
//
// The goroutine qualifies when, run alone with the goroutines it starts
// (its group: the sequential subtests it runs, and goroutines of its own
// as long as they run one at a time), the group never blocks on anything
// outside it and never has more than one choice between its members (no
// private select with two ready cases, no data choice), ends whole within
// soloSteps transitions, starts no goroutine where the program has seen
// goroutine ids, reads no clock and no timer fires, changes no file,
// environment variable or collection count, and every object it writes
// (by content: the race detector's clocks are not content) or
// synchronizes on that existed before is unreachable from every other
// goroutine, the globals, the timers and the entry's T — the parent's
// list of its parallel subtests (common.sub) is not followed, as the
// parent reads only their done flags once it resumes. Plain reads of
// shared objects are allowed: an object another goroutine writes later
// without ordering is a race either way, reported in the reordered
// execution as in the original. The testing natives' own synchronization
// (an Access with Test set) is the parent's wait for its subtests. A run
// that reaches an error qualifies too: the error is reachable (not one
// that stops at an unsupported operation: another order may find a
// verdict first).
//
// Solo is sound only where races are errors and plain accesses are not
// scheduling points (SchedSync with the race check), and outside symbolic
// runs; it refuses elsewhere.

// soloSteps bounds a solo run (a subtest that runs longer is interleaved
// as any goroutine).
const soloSteps = 4096

// SoloCandidate reports whether goroutine id is a parallel subtest that
// its parent's return has just released (it waits in t.Parallel and may
// go on): the goroutines Solo may run alone.
func (s *State) SoloCandidate(id int) bool {
	g := s.getG(id)
	return g != nil && g.status == gBlocked && g.wait.kind == waitBarrier && g.bubble == 0 && s.guard(g)
}

// Solo reports whether goroutine id of s can run alone to its end first,
// every other interleaving from s being equivalent to such a run (see
// above); deadline (wall-clock Unix nanoseconds, 0: none) bounds the
// run's transitions. The reason says why not.
func (m *Machine) Solo(s *State, id int, deadline int64) (bool, string) {
	if m.opts.Sched != SchedSync || !m.opts.Checks.Race {
		return false, "not under --sched sync with the race check"
	}
	if s.data != nil || s.err != nil || !s.SoloCandidate(id) {
		return false, "not a released parallel subtest"
	}
	if m.opts.TimerChoice || m.opts.StepTime != 0 {
		return false, "timers may fire as it runs"
	}
	synced := map[ObjID]bool{}
	cur := s
	chain := NewSoloChain(s, id)
	nested := func(n *State, g int) bool { // (a released subtest of the group: alone too)
		ok, _ := m.Solo(n, g, deadline)
		return ok
	}
	for step := 0; ; step++ {
		if step >= soloSteps {
			return false, "runs too long"
		}
		if deadline != 0 && time.Now().UnixNano() > deadline {
			return false, "out of time"
		}
		idx, ok := chain.next(cur, cur.Choices(), nested)
		if !ok {
			return false, "it blocks or has a choice of its own"
		}
		next := m.StepWithin(cur, idx, deadline)
		if next.Cut() {
			return false, "out of time"
		}
		if next.err != nil {
			if next.err.Kind == KindUnsupported { // (not a verdict: others may find one first)
				return false, "it stops at an unsupported operation"
			}
			return true, "it reaches an error"
		}
		for _, a := range next.fp {
			switch {
			case a.Obj == AllObjects && a.Test:
			case a.Obj == AllObjects || a.Obj == 0:
				return false, "it observes the whole state or a timer fires"
			case a.Obj < s.heap.next:
				synced[a.Obj] = true
			}
		}
		if why := s.soloSame(next); why != "" {
			return false, why
		}
		cur = next
		if soloGroupDone(cur, soloGroup{id, s.nextG}) {
			break
		}
	}
	written := s.soloWritten(cur)
	if len(written) == 0 && len(synced) == 0 {
		return true, ""
	}
	reached := s.soloReached(id)
	for obj := range written {
		if reached[obj] {
			return false, "it writes an object others reach"
		}
	}
	for obj := range synced {
		if reached[obj] {
			return false, "it synchronizes with others"
		}
	}
	return true, ""
}

// soloGroup is a goroutine that runs alone with the goroutines it starts:
// id, and those from the id from on (the nextG of the state it was
// released in).
type soloGroup struct{ id, from int }

func (gr soloGroup) has(g int) bool { return g == gr.id || g >= gr.from }

// soloGroupDone reports whether every goroutine of group gr is dead in n.
func soloGroupDone(n *State, gr soloGroup) bool {
	for g := range n.gs.all() {
		if gr.has(g.id) && g.status != gDead {
			return false
		}
	}
	return true
}

// SoloChain is the run of a group Solo accepted, as a search follows it:
// at each state the one choice the group takes. A group goes on alone
// while it has one choice between its goroutines; where it has several
// (a table of parallel subtests nested in the subtest), its released
// parallel subtest with the lowest id goes alone with its own group
// (Solo accepted that one too, against every other goroutine, the
// group's included), then the group goes on: a stack of groups.
type SoloChain struct{ groups []soloGroup }

// NewSoloChain starts the chain of goroutine id's group at s.
func NewSoloChain(s *State, id int) *SoloChain {
	return &SoloChain{groups: []soloGroup{{id, s.nextG}}}
}

// Next returns the index in choices (s's) of the choice the chain takes
// at s, or false once the group has ended.
func (c *SoloChain) Next(s *State, choices []Choice) (int, bool) {
	return c.next(s, choices, nil)
}

// next is Next; accept (nil: any) decides whether a nested released
// subtest may go alone (Solo's run checks it with Solo).
func (c *SoloChain) next(s *State, choices []Choice, accept func(*State, int) bool) (int, bool) {
	for len(c.groups) > 0 {
		top := c.groups[len(c.groups)-1]
		if soloGroupDone(s, top) {
			c.groups = c.groups[:len(c.groups)-1]
			continue
		}
		at, n, low := -1, 0, -1
		for i, ch := range choices {
			if ch.Kind == ChooseTimer || !top.has(ch.G) {
				continue
			}
			at, n = i, n+1
			if ch.Kind == ChooseGoroutine && s.SoloCandidate(ch.G) && (low < 0 || ch.G < choices[low].G) {
				low = i
			}
		}
		switch {
		case n == 1 && choices[at].Kind == ChooseGoroutine:
			return at, true
		case n > 1 && low >= 0 && (accept == nil || accept(s, choices[low].G)):
			c.groups = append(c.groups, soloGroup{choices[low].G, s.nextG})
			continue
		}
		return -1, false
	}
	return -1, false
}

// soloSame reports what n changed that a solo run may not ("": nothing)
// among the state outside the heap and the goroutines. The group may
// start goroutines (its subtests, and goroutines of its own that run one
// at a time) unless the program has seen goroutine ids: the others' ids
// then differ between the orders, and it would see that.
func (s *State) soloSame(n *State) string {
	switch {
	case n.nextG != s.nextG && (s.idsSeen || n.idsSeen):
		return "it starts a goroutine where goroutine ids are seen"
	case n.clock != s.clock || n.nowReads != s.nowReads:
		return "it reads the clock"
	case len(n.timers) != len(s.timers):
		return "it sets or stops a timer"
	case n.env != s.env || n.fs != s.fs || n.draws != s.draws || n.numGC != s.numGC:
		return "it changes the environment, files or collections"
	case len(n.files) != len(s.files) || len(n.files) > 0 && &n.files[0] != &s.files[0]:
		return "it opens or closes a file"
	case n.out != s.out && s.entry == EntryExample:
		return "it prints in an example"
	case n.exited:
		return "the program ends"
	}
	for i := range n.timers {
		if n.timers[i].when != s.timers[i].when || n.timers[i].seq != s.timers[i].seq {
			return "it sets or stops a timer"
		}
	}
	if n.test != s.test && (n.test == nil || s.test == nil || n.test.skip != s.test.skip || n.test.run != s.test.run) {
		return "it changes the test's state"
	}
	return ""
}

// soloWritten returns the objects of s whose content differs in n
// (objects allocated since s excluded, collected ones too).
func (s *State) soloWritten(n *State) map[ObjID]bool {
	out := map[ObjID]bool{}
	var h *hasher
	for ci, nc := 0, s.heap.numChunks(); ci < nc; ci++ {
		if di := ci >> dirBits; ci&(dirSize-1) == 0 && s.heap.dir(di) == n.heap.dir(di) {
			ci += dirSize - 1 // the whole directory is shared
			continue
		}
		a, b := s.heap.chunk(ci), n.heap.chunk(ci)
		if a == nil || a == b {
			continue
		}
		for j, old := range a.objs {
			id := ObjID(ci<<chunkBits | j)
			if old == nil || id >= s.heap.next {
				continue
			}
			var nw *Object
			if b != nil {
				nw = b.objs[j]
			}
			if nw == nil || nw == old {
				continue
			}
			if h == nil { // one numbering for both versions: a changed reference shows
				h = &hasher{h: fnvOffset, s: s, ids: map[ObjID]int{}}
			}
			ho, _, _ := h.objSub(old)
			hn, _, _ := h.objSub(nw)
			if ho != hn {
				out[id] = true
			}
		}
	}
	return out
}

// soloReached returns the objects reachable from the globals, the
// timers, the entry's T and every goroutine but id, not following the
// list of parallel subtests of a testing.T.
func (s *State) soloReached(id int) map[ObjID]bool {
	h := &hasher{h: fnvOffset, s: s, ids: map[ObjID]int{}}
	for _, g := range s.m.allGlobals {
		h.obj(g)
	}
	for _, tm := range s.timers {
		h.obj(tm.ch.Obj)
		h.obj(tm.id)
		if tm.fn != nil {
			h.value(tm.fn)
		}
	}
	if s.test != nil {
		h.obj(s.test.entryT)
	}
	for g := range s.gs.all() {
		if g.id == id || g.status == gDead {
			continue
		}
		h.stackRefs(g, false)
		h.obj(g.wait.ptr.Obj)
		h.obj(g.wait.ptr2.Obj)
	}
	subOff := map[*RType]int32{}
	for ; h.next < len(h.queue); h.next++ {
		o := s.heap.get(h.queue[h.next])
		off := s.m.soloSubCell(o, subOff)
		if off < 0 {
			h.content(o)
			continue
		}
		for i, n := 0, o.numCells(); i < n; i++ {
			if i != int(off) {
				h.value(o.cell(i))
			}
		}
	}
	out := make(map[ObjID]bool, len(h.queue))
	for _, q := range h.queue {
		out[q] = true
	}
	return out
}

// soloSubCell returns the cell of common.sub in o if o is a testing.T
// (-1: it is not), caching the offset by type.
func (m *Machine) soloSubCell(o *Object, cache map[*RType]int32) int32 {
	if o == nil || o.kind != objCells || o.T == nil {
		return -1
	}
	if off, ok := cache[o.T]; ok {
		return off
	}
	off := int32(-1)
	if named, ok := o.T.T.(*types.Named); ok && named.Obj().Name() == "T" && named.Obj().Pkg() != nil && named.Obj().Pkg().Path() == "testing" {
		if o2, _, ok := m.testField(o.T, "sub"); ok {
			off = o2
		}
	}
	cache[o.T] = off
	return off
}
