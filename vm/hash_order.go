package vm

import (
	"cmp"
	"slices"
	"sort"
)

// The canonical order of a state's goroutines for its hash (hash.go):
// goroutines are ranked by their summaries, twins (hasher, twins.go) by
// the objects they reference, so that a hash does not depend on goroutine
// ids.

// How a hasher names goroutines (gid).
const (
	gidsCanonical = iota // by position in the canonical order (hasher.gpos)
	gidsRaw              // by id
	gidsNone             // not at all (gsum.key)
	gidsFirst            // not at all, noting where each first appears (hasher.first)
)

// canonicalOrder returns the live goroutines in canonical order (see
// gid): by gsum.key; goroutines with the same key (twins: identical
// workers) by where they first appear in the part of the state the
// globals and the other goroutines reach (a channel's queue of senders,
// a timer), then by the objects of that part they reference, then by id.
// So twins queued on a channel, or behind the ready channels of a list of
// waiters, are ordered by their place in the queue, whichever of them came
// first. Any order gives a sound hash (a walk in that order names every
// object and goroutine consistently); a canonical one merges more.
//
// c is the walk of the roots' closure of this state (nil: none).
func (s *State) canonicalOrder(c *rootsWalk, roots []ObjID, t *numbering) ([]*goroutine, []*gsum) {
	n := s.gs.len()
	t.gs, t.sums = reuseDirty(t.gs, n), reuseDirty(t.sums, n) // (written whole below)
	gs, sums := t.gs, t.sums
	s.gs.flatten(gs)
	if s.idsSeen {
		sort.Slice(gs, func(i, j int) bool { return gs[i].id < gs[j].id })
		for i, g := range gs {
			sums[i] = s.summary(g)
		}
		return gs, sums
	}
	t.ranks = reuseDirty(t.ranks, n)
	ranks := t.ranks
	for i, g := range gs {
		sums[i] = s.summary(g)
		ranks[i] = goRank{key: sums[i].key, id: int32(g.id), at: int32(i)}
	}
	sortRanks(ranks)
	twins := false
	for i := 1; i < n && !twins; i++ {
		twins = ranks[i].key == ranks[i-1].key
	}
	if twins {
		s.orderTwins(t, c, roots, ranks, sums)
	}
	// gs and sums in the order of ranks (ordered: the goroutines in
	// State.gs order, the summaries by index there)
	t.ordered = reuseDirty(t.ordered, n)
	copy(t.ordered, sums)
	t.byAt = reuseDirty(t.byAt, n)
	copy(t.byAt, gs)
	for i, r := range ranks {
		gs[i], sums[i] = t.byAt[r.at], t.ordered[r.at]
	}
	return gs, sums
}

// sortRanks sorts ranks by key, then id: by insertion for the few
// goroutines of most states (a generic sort with a comparison function
// took 7 % of a stateful DFS), else by slices.SortFunc.
func sortRanks(ranks []goRank) {
	if len(ranks) > 32 {
		slices.SortFunc(ranks, func(a, b goRank) int {
			if a.key != b.key {
				return cmp.Compare(a.key, b.key)
			}
			return cmp.Compare(a.id, b.id)
		})
		return
	}
	for i := 1; i < len(ranks); i++ {
		x := ranks[i]
		j := i
		for ; j > 0; j-- {
			y := &ranks[j-1]
			if y.key < x.key || y.key == x.key && y.id < x.id {
				break
			}
			ranks[j] = *y
		}
		ranks[j] = x
	}
}

// goRank is a goroutine's place in the canonical order (canonicalOrder):
// 16 bytes, moved by the sort of every hash (a run of twins' places in
// the rest of the state are kept apart: twinKey).
type goRank struct {
	key uint64
	id  int32
	at  int32 // index in State.gs (by id)
}

// twinKey orders twins (orderTwins): where each first appears in the rest
// of the state, then the objects of it they reference.
type twinKey struct{ first, refs uint64 }

// reuseDirty is reuse without clearing: for buffers the caller overwrites
// whole.
func reuseDirty[T any](buf []T, n int) []T {
	if cap(buf) < n {
		return make([]T, n, n+n/4)
	}
	return buf[:n]
}

// reuse returns buf resized to n zero elements, reallocated only if it
// is too small.
func reuse[T any](buf []T, n int) []T {
	if cap(buf) < n {
		return make([]T, n, n+n/4)
	}
	buf = buf[:n]
	clear(buf)
	return buf
}

// orderTwins orders each run of twins (goroutines with the same key) in
// ranks, sorted by key, by where they first appear in the part of the
// state the globals and the goroutines without a twin reach (walked in id
// order), then by the objects of that part they reference, then by id.
// sums are the goroutines' summaries by index in State.gs; t is the
// table of the walk in progress and c its walk of the roots' closure
// (twinsInRest), or nil.
//
// Where the closure names no goroutine, the walk of that part is the
// closure as the walk in progress numbered it, then the rest of the part
// (twinsInRest), not a walk from the roots again: the hash's walk costs
// twice as much with it on states with twins (errgroup's workers). That
// orders twins otherwise than the walk from the roots, but as soundly
// and merging the same states: either walk reaches the same objects and
// goroutine ids, numbers each once and depends on the state's structure
// only, so two twins tie (neither appears, and they reference the same
// objects in the same places, or none) in one exactly when they tie in
// the other (vm TestHashRootsEquivalence: over the states of searches of
// programs with twins, the hash with this walk and the hash with the
// walk from the roots merge exactly the same states).
func (s *State) orderTwins(t *numbering, c *rootsWalk, roots []ObjID, ranks []goRank, sums []*gsum) {
	twin := reuse(t.twin, len(ranks)) // by index in State.gs
	t.twin = twin
	for i := 1; i < len(ranks); i++ {
		if ranks[i].key == ranks[i-1].key {
			twin[ranks[i].at], twin[ranks[i-1].at] = true, true
		}
	}
	if s.twinsInRest(t, c, ranks, sums, twin) {
		return
	}
	p := s.wholeHasher()
	defer p.release()
	p.gmode, p.first = gidsFirst, p.table.firstMap()
	for _, id := range roots {
		p.obj(id)
	}
	p.restOfState(s, sums, twin)
	sortTwins(t, ranks, sums, p)
}

// refsKey hashes a goroutine's key and the objects it references by
// their numbers in the walk peek (-1 for the others): which of the
// objects the rest of the state reaches a twin references, and where.
func refsKey(sum *gsum, peek *hasher) uint64 {
	h := hasher{h: sum.key}
	for _, id := range sum.objs {
		if n, ok := peek.number(id); ok {
			h.int(int64(n))
		} else {
			h.int(-1)
		}
	}
	return h.h
}
