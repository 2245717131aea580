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
	for step := 0; ; step++ {
		if step >= soloSteps {
			return false, "runs too long"
		}
		if deadline != 0 && time.Now().UnixNano() > deadline {
			return false, "out of time"
		}
		idx, ok := OnlyGroupChoice(cur.Choices(), id, s.nextG)
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
		if soloGroupDone(cur, id, s.nextG) {
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

// soloGroupDone reports whether the solo group of goroutine id in n —
// id and the goroutines started since the state whose nextG was from —
// has ended: every one of them is dead.
func soloGroupDone(n *State, id, from int) bool {
	for g := range n.gs.all() {
		if (g.id == id || g.id >= from) && g.status != gDead {
			return false
		}
	}
	return true
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
