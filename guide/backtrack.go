package guide

import (
	"math/rand/v2"

	"github.com/emirpasic/gods/maps/treemap"
	"github.com/gmc-go/gmc/vm"
)

// entry is a state saved for backtracking with its ranking and path.
type entry struct {
	s    *vm.State
	r    RankState
	path *pathNode
	// lazy is 1 + the index of a choice of s not run yet (the guided
	// search's lazy successors): r is then its estimate, with the first
	// tier and per-path data of s, and path is s's; 0: s is the state.
	lazy int
	c    vm.Choice // the choice that reached s (lazy: unused)
}

type btKey struct {
	h   int
	seq uint64
}

func btCompare(a, b interface{}) int {
	x, y := a.(btKey), b.(btKey)
	switch {
	case x.h != y.h:
		if x.h < y.h {
			return -1
		}
		return 1
	case x.seq < y.seq:
		return -1
	case x.seq > y.seq:
		return 1
	}
	return 0
}

// BacktrackSet is the bounded set of states the greedy search may return
// to (Fig. 3.4–3.5), indexed by meta level and ordered by secondary
// heuristic value within a level.
type BacktrackSet struct {
	levels  map[int]*treemap.Map
	size    int
	cap     int
	seq     uint64
	dropped int
}

func newBacktrackSet(capacity int) *BacktrackSet {
	return &BacktrackSet{levels: map[int]*treemap.Map{}, cap: capacity}
}

// Add saves e; past the capacity the worst state of the lowest level is dropped.
func (b *BacktrackSet) Add(e entry) {
	e.s.DropRanks(keptChoices) // (the guided search names no goroutine by rank)
	lv := b.levels[e.r.Level]
	if lv == nil {
		lv = treemap.NewWith(btCompare)
		b.levels[e.r.Level] = lv
	}
	b.seq++
	lv.Put(btKey{e.r.H, b.seq}, e)
	b.size++
	if b.size > b.cap {
		low := -1
		for l, m := range b.levels {
			if m.Size() > 0 && (low < 0 || l < low) {
				low = l
			}
		}
		k, _ := b.levels[low].Max()
		b.levels[low].Remove(k)
		b.size--
		b.dropped++
	}
}

// Len is the number of saved states.
func (b *BacktrackSet) Len() int { return b.size }

// Pick implements get_backtrack_state (Fig. 3.5): a meta level chosen at
// random among the non-empty ones, then the state of least secondary
// value at that level (the earliest saved among equals).
func (b *BacktrackSet) Pick(rng *rand.Rand) (entry, bool) {
	var lvls []int
	for l, m := range b.levels {
		if m.Size() > 0 {
			lvls = append(lvls, l)
		}
	}
	if len(lvls) == 0 {
		return entry{}, false
	}
	sortInts(lvls)
	l := lvls[rng.IntN(len(lvls))]
	m := b.levels[l]
	k, v := m.Min()
	m.Remove(k)
	b.size--
	return v.(entry), true
}

// all removes and returns every saved state, by level and then in the
// order Pick would take them.
func (b *BacktrackSet) all() []entry {
	var lvls []int
	for l := range b.levels {
		lvls = append(lvls, l)
	}
	sortInts(lvls)
	out := make([]entry, 0, b.size)
	for _, l := range lvls {
		for _, v := range b.levels[l].Values() {
			out = append(out, v.(entry))
		}
	}
	b.levels, b.size = map[int]*treemap.Map{}, 0
	return out
}

// best removes and returns the state of the highest level with the least
// secondary value (the earliest saved among equals).
func (b *BacktrackSet) best() (entry, bool) {
	top, found := 0, false
	for l, m := range b.levels {
		if m.Size() > 0 && (!found || l > top) {
			top, found = l, true
		}
	}
	if !found {
		return entry{}, false
	}
	m := b.levels[top]
	k, v := m.Min()
	m.Remove(k)
	b.size--
	return v.(entry), true
}

func sortInts(a []int) {
	for i := 1; i < len(a); i++ {
		for j := i; j > 0 && a[j] < a[j-1]; j-- {
			a[j], a[j-1] = a[j-1], a[j]
		}
	}
}
