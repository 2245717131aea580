package vm

import (
	"sync"
	"sync/atomic"
	"unsafe"
)

// gsum is what the state hash needs of one goroutine alone, computed
// once per goroutine version: a state's hash walks thousands of
// goroutines of which a transition wrote one or two.
//
// key is the goroutine hashed alone (hasher.goroutine without goroutine
// ids, objects numbered 1, 2, … in the order it first references them):
// the key of the canonical order. objs lists those objects in that order
// and gids every goroutine id it names, in order (its own first). The
// walk of the whole state hashes a goroutine as its key, then its
// objects by their numbers in the walk (numbering the new ones), then
// its goroutine ids by rank (hasher.summary). That determines what
// hasher.goroutine hashes in the walk and is determined by it: the key
// fixes the goroutine's content up to the names of its objects and
// goroutines (which occurrences name the same one), the rest gives the
// names. So two states hash equally exactly when they did with the
// goroutines walked in full, and the walk numbers and queues the objects
// in the same order (the drain and the race summary see the same queue).
type gsum struct {
	key  uint64
	objs []ObjID
	gids []int
	vc   vclock // the race detector's clock of the goroutine
	// objs and gids of a few elements are kept here (one allocation a
	// summary, not three: a summary is made at every transition)
	objBuf [4]ObjID
	gidBuf [2]int
}

// summary returns goroutine g's summary, cached in g once g is frozen.
// It hashes only the registers live at each frame's position
// (liveness.go): a register no instruction from there on reads (a loop
// variable of an iteration past, a result checked and dropped) cannot
// change the goroutine's future, and identical workers that differ only
// in such a value (the counter each read on its way in) are twins.
func (s *State) summary(g *goroutine) *gsum {
	if p := atomic.LoadPointer(&g.sum); p != nil {
		return (*gsum)(p)
	}
	sum := s.summarize(g)
	if s.frozen(g.epoch) {
		// frozen: it belongs to an older state and is copied before any
		// write, or the state is sealed (a goroutine of this state's
		// epoch may still be written while the state is built: a spin
		// probe or a collection hashes it before the transition ends)
		atomic.StorePointer(&g.sum, unsafe.Pointer(sum))
	}
	return sum
}

// summarize computes goroutine g's summary (see summary).
func (s *State) summarize(g *goroutine) *gsum {
	h := summarizers.Get().(*hasher)
	if len(h.ids) > 0 {
		clear(h.ids)
	}
	*h = hasher{h: fnvOffset, s: s, ids: h.ids, small: true, gmode: gidsNone, logGids: true, live: true,
		queue: h.queue[:0], gids: h.gids[:0]}
	h.goroutine(g)
	sum := &gsum{key: h.h | 1, vc: g.vc}
	sum.objs = inlineOr(sum.objBuf[:], h.queue)
	sum.gids = inlineOr(sum.gidBuf[:], h.gids)
	h.s = nil
	summarizers.Put(h)
	return sum
}

// smallIDs: a goroutine's summary numbers up to so many objects by
// scanning its list of them (hasher.small), more in a map.
const smallIDs = 16

// summarizers are hashers for summarize (their map and buffers reused).
var summarizers = sync.Pool{New: func() any { return &hasher{ids: map[ObjID]int{}} }}

// inlineOr returns a copy of buf in the start of in if it fits, else
// exact(buf).
func inlineOr[T any](in, buf []T) []T {
	if len(buf) == 0 {
		return nil
	}
	if len(buf) <= len(in) {
		n := copy(in, buf)
		return in[:n:n]
	}
	return exact(buf)
}

// exact returns a copy of buf of its length (nil if empty).
func exact[T any](buf []T) []T {
	if len(buf) == 0 {
		return nil
	}
	return append(make([]T, 0, len(buf)), buf...)
}

// summary hashes a goroutine from its summary where the walk would hash
// it in full (hasher.goroutine).
func (h *hasher) summary(sum *gsum) {
	h.u64(sum.key)
	for _, id := range sum.objs {
		h.obj(id)
	}
	for _, id := range sum.gids {
		if h.gmode == gidsCanonical && h.gposMap == nil && id > 0 && id < len(h.gpos) {
			h.int(int64(h.gpos[id]) - 1) // gid's common case, without the call
			continue
		}
		h.gid(id)
	}
}

// numbering is the numbers a walk of the whole state gives objects, in a
// table indexed by object id (ids are dense: the heap's next id bounds
// them) rather than a map: a walk numbers every object it reaches. A
// number counts only where its stamp is the table's current generation,
// so a table is reused without clearing. It also holds the walk's other
// buffers (one each per walk; reused, not reallocated, with the table).
type numbering struct {
	gen   uint32
	stamp []uint32
	num   []int32

	queue    []ObjID      // hasher.queue
	gs       []*goroutine // canonicalOrder's results
	sums     []*gsum
	ordered  []*gsum
	byAt     []*goroutine // the goroutines in State.gs order (canonicalOrder)
	ranks    []goRank
	twinKeys []twinKey   // orderTwins
	twin     []bool      // orderTwins
	gpos     []int32     // hasher.gpos
	race     raceScratch // raceSummary
	first    firstSeen   // orderTwins
	// roots is the table's last walk of the roots' closure (hash_roots.go)
	roots *rootsWalk
	own   owners // hasher.own's buffers
	// prefix: the queue's backing array begins with prefix.ids (set when a
	// walk that numbered them first ends; nil: unknown)
	prefix *rootsWalk
	h      hasher // the table's hasher (wholeHasher; its buffers reused)
	peek   hasher // its second (twinsByID)
}

var numberings = sync.Pool{New: func() any { return new(numbering) }}

// newNumbering returns an empty table for ids below n.
func newNumbering(n ObjID) *numbering {
	t := numberings.Get().(*numbering)
	if int(n) > len(t.stamp) {
		size := int(n) + int(n)/4 + 64
		t.stamp, t.num, t.gen = make([]uint32, size), make([]int32, size), 0
	}
	t.gen++
	if t.gen == 0 { // wrapped: old stamps could match again
		clear(t.stamp)
		t.gen = 1
	}
	return t
}

func (t *numbering) get(id ObjID) (int, bool) {
	if int(id) < len(t.stamp) && t.stamp[id] == t.gen {
		return int(t.num[id]), true
	}
	return 0, false
}

func (t *numbering) set(id ObjID, n int) {
	if int(id) >= len(t.stamp) { // (not expected: ids are below the heap's next)
		size := int(id) + int(id)/4 + 64
		t.stamp = append(t.stamp, make([]uint32, size-len(t.stamp))...)
		t.num = append(t.num, make([]int32, size-len(t.num))...)
	}
	t.stamp[id], t.num[id] = t.gen, int32(n)
}

// wholeHasher returns a hasher for a walk of the whole state (numbering
// its objects in a table; the hasher is the table's); release returns the
// table, and with it the hasher, when the walk is done.
func (s *State) wholeHasher() *hasher {
	t := newNumbering(s.heap.next)
	h := &t.h
	*h = hasher{h: fnvOffset, s: s, table: t, queue: t.queue[:0],
		raced: h.raced[:0], gids: h.gids[:0], traced: h.traced[:0]}
	return h
}

// release returns the hasher's numbering table for reuse; the hasher's
// numbers are gone.
func (h *hasher) release() {
	if t := h.table; t != nil {
		// keep no goroutine, summary or clock of the state alive
		clear(t.gs)
		clear(t.sums)
		clear(t.ordered)
		clear(t.byAt)
		t.queue = h.queue[:0]
		// a walk of the roots' closure leaves its objects at the head of
		// the queue (only appended to since), where the next walk of the
		// same closure finds them (rootsClosure)
		t.prefix = nil
		if h.rw != nil && len(h.queue) >= len(h.rw.ids) {
			t.prefix = h.rw
		}
		h.queue, h.s, h.order, h.sums, h.table, h.rw, h.own = nil, nil, nil, nil, nil, nil, nil
		numberings.Put(t)
	}
}

// number returns the number the walk gave object id, if it reached it.
func (h *hasher) number(id ObjID) (int, bool) {
	if c := h.rw; c != nil && int(id) < len(c.num) && c.num[id] != 0 {
		return int(c.num[id]), true
	}
	if h.table != nil {
		return h.table.get(id)
	}
	if h.small {
		for i, q := range h.queue {
			if q == id {
				return i + 1, true
			}
		}
		return 0, false
	}
	n, ok := h.ids[id]
	return n, ok
}
