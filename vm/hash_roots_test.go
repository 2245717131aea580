package vm

import (
	"path/filepath"
	"slices"
	"testing"

	"github.com/gmc-go/gmc/vm/load"
)

// TestHashRootsEquivalence: the walk that hashes the roots' closure first
// (hash_roots.go) merges exactly the states the walk that met objects in
// the order roots, goroutines, timers did (refHash, the walk before it):
// over the states of a breadth-first search of each program, the two
// hashes partition the successors the same way. And the shortcut of
// orderTwins (twinsInRest: the rest of the state after the kept closure,
// not a walk from the roots) merges the same states as its walk from the
// roots (refHash uses that walk), and the kept closure gives the hash a
// walk from scratch gives.
func TestHashRootsEquivalence(t *testing.T) {
	progs := []string{"twinqueue", "symmetry", "philosophers", "manyg", "allocorder", "bufchan", "selects",
		"race/mutex", "race/chanhandoff", "race/waitgroup", "race/once", "spin", "tickhang"}
	merged := 0
	for _, prog := range progs {
		p, err := load.Load(load.Config{Dir: filepath.Join("testdata", prog)})
		if err != nil {
			t.Fatal(err)
		}
		for _, checks := range []Checks{{}, {Race: true, Leak: true}} {
			m := New(p, Options{Checks: checks})
			e, err := m.FindEntry("")
			if err != nil {
				t.Fatal(err)
			}
			newToRef, refToNew := map[uint64]uint64{}, map[uint64]uint64{}
			queue := []*State{m.Start(e)}
			seen := map[uint64]bool{}
			successors := 0
			for len(queue) > 0 && successors < 1000 {
				s := queue[0]
				queue = queue[1:]
				for i := range s.Choices() {
					n := m.Step(s, i)
					successors++
					nh, rh := n.Hash(), refHash(n)
					if r, ok := newToRef[nh]; ok && r != rh {
						t.Fatalf("%s: two states the new hash merges, the old one does not", prog)
					}
					if x, ok := refToNew[rh]; ok && x != nh {
						t.Fatalf("%s: two states the old hash merges, the new one does not", prog)
					}
					newToRef[nh], refToNew[rh] = rh, nh
					checkTwinOrder(t, prog, n)
					checkRootsFresh(t, prog, n)
					if !seen[rh] {
						seen[rh] = true
						queue = append(queue, n)
					} else {
						merged++
					}
				}
			}
		}
	}
	if merged < 100 {
		t.Errorf("only %d successors merged with an earlier state, want at least 100", merged)
	}
}

// checkTwinOrder checks that s's canonical order with the shortcut of
// orderTwins is a reordering of twins only: the goroutines' keys in the
// same order as with the walk from the roots (which of two twins comes
// first may differ: both orders are canonical, and the partition check
// of TestHashRootsEquivalence finds whether they merge the same states).
func checkTwinOrder(t *testing.T, prog string, s *State) {
	t.Helper()
	h := s.wholeHasher()
	c := h.rootsClosure(s.m.hashRoots)
	_, sums := s.canonicalOrder(c, s.m.hashRoots, h.table)
	var fast []uint64
	for _, sum := range sums {
		fast = append(fast, sum.key)
	}
	h.release()
	rootsCache = false
	defer func() { rootsCache = true }()
	h = s.wholeHasher()
	_, sums = s.canonicalOrder(nil, s.m.hashRoots, h.table)
	defer h.release()
	var full []uint64
	for _, sum := range sums {
		full = append(full, sum.key)
	}
	if !slices.Equal(fast, full) {
		t.Fatalf("%s: the canonical order's keys differ with the shortcut of orderTwins", prog)
	}
}

// checkRootsFresh checks that s hashes the same with the roots' closure
// walked from scratch.
func checkRootsFresh(t *testing.T, prog string, s *State) {
	t.Helper()
	want := s.Hash()
	rootsCache = false
	defer func() { rootsCache = true }()
	s.hashed, s.chashed = false, false
	if got := s.Hash(); got != want {
		t.Fatalf("%s: hash %x with the kept closure, %x without", prog, want, got)
	}
}

// refHash is State.Hash with the walk that met the objects in the order
// roots, goroutines, timers, breadth first from all of them (the walk
// before hash_roots.go), and the full walk of orderTwins.
func refHash(s *State) uint64 {
	h := s.wholeHasher()
	defer h.release()
	roots := s.m.hashRoots
	for _, id := range roots {
		h.obj(id)
	}
	gs, sums := s.canonicalOrder(nil, roots, h.table)
	if s.idsSeen {
		h.byte(0xa5)
		h.gmode = gidsRaw
	} else {
		h.gposMap = make(map[int]int, len(gs))
		for i, g := range gs {
			h.gposMap[g.id] = i
		}
	}
	h.order, h.sums = gs, sums
	if s.race != nil {
		h.own = h.table.ownersFor(len(h.queue), h.next)
	}
	for k, sum := range sums {
		if h.own != nil {
			h.own.cur = int32(k + 1)
		}
		h.summary(sum)
	}
	if h.own != nil {
		h.own.cur = -1
	}
	if s.data != nil {
		s.data.hashInto(h)
	}
	h.int(s.clock)
	if s.nowReads == s.clock+1 {
		h.int(-1)
	}
	for _, tm := range s.timers {
		h.int(tm.when - s.clock)
		h.gid(tm.g)
		h.obj(tm.ch.Obj)
		h.obj(tm.id)
		if tm.fn != nil {
			h.value(tm.fn)
		}
	}
	h.drain()
	if s.race != nil {
		h.raceSummary()
	}
	for g := range s.gs.all() {
		if g.spin != nil && g.spin.spinning && g.spin.fp == s.contentHash() {
			h.gid(g.id)
		}
	}
	return h.h
}
