package vm

// raceScratch is the race summary's buffers (raceSummary), kept with a
// walk's numbering table and reused from one hash to the next: a search
// hashes every state, and allocating them anew each time made the
// summary and the collector a third of the search's time on tests with
// many goroutines (errgroup's TestGoLimit, TestTryGo). Only the buffers
// outlive a summary, never their contents: done clears what a summary
// set, and drops the references that would keep a state's clocks alive.
type raceScratch struct {
	live   []vclock
	syncs  []vclock
	views  []viewAt
	wanted []int // the goroutines with a latest epoch, in the order met
	// by goroutine id, zero outside a summary: the latest epoch of its
	// accesses, the least entry of every live clock for it (liveMin), and
	// its slot (1 + its index in wanted, then in rest)
	latest  []uint64
	liveMin []uint64
	slot    []int32
	count   []int
	least   []uint64
	rest    []int
	want    [][]clockEntry    // by index in rest
	memos   [][]epochCover    // by index in rest: the covers of its first epochs
	memo    map[epochOf]cover // the covers of the others
	arena   []uint64          // the covers' bitmaps; used: its first used words
	used    int
	reads   []coveredRead
	minimal []coveredRead
	write   coveredRead
}

// viewAt is an object's race view and its number in the walk.
type viewAt struct {
	n int
	v *raceView
}

// cover is the set of present clocks that cover an access (a bitmap:
// live clocks, then synchronization clocks) and its digest.
type cover struct {
	words  []uint64
	digest uint64
}

// epochCover is the cover of a goroutine's accesses of epoch c.
type epochCover struct {
	c  uint64
	cv cover
}

// maxScanned is the number of a goroutine's epochs whose covers a
// summary looks up by scanning (memos); the others are in a map.
const maxScanned = 16

// maxMemo is the size past which a summary's memo is dropped rather than
// cleared for the next (clearing costs its capacity).
const maxMemo = 4096

// raceScratch returns the walk's race summary buffers.
func (h *hasher) raceScratch() *raceScratch {
	if h.table != nil {
		return &h.table.race
	}
	return &raceScratch{}
}

// grow makes room in the by-id buffers for goroutine g.
func (x *raceScratch) grow(g int) {
	if g < len(x.latest) {
		return
	}
	n := max(2*len(x.latest), g+64)
	x.latest = append(x.latest, make([]uint64, n-len(x.latest))...)
	x.liveMin = append(x.liveMin, make([]uint64, n-len(x.liveMin))...)
	x.slot = append(x.slot, make([]int32, n-len(x.slot))...)
}

// bitmap returns n zeroed words of the arena.
func (x *raceScratch) bitmap(n int) []uint64 {
	if x.used+n > len(x.arena) {
		// a new arena: the bitmaps handed out keep the old one
		x.arena, x.used = make([]uint64, max(2*len(x.arena), 256, n)), 0
	}
	w := x.arena[x.used : x.used+n : x.used+n]
	x.used += n
	clear(w)
	return w
}

// done resets what a summary set, for the next.
func (x *raceScratch) done() {
	for _, g := range x.wanted {
		x.latest[g], x.liveMin[g], x.slot[g] = 0, 0, 0
	}
	x.wanted = x.wanted[:0]
	// (past their lengths the buffers were cleared by the last done)
	clear(x.live)
	x.live = x.live[:0]
	clear(x.syncs)
	x.syncs = x.syncs[:0]
	clear(x.views)
	x.views = x.views[:0]
	if len(x.memo) > maxMemo {
		x.memo = nil
	} else {
		clear(x.memo)
	}
	for k := range x.memos {
		x.memos[k] = x.memos[k][:0] // (their covers' words are in the arena)
	}
	x.used = 0
	x.write = coveredRead{}
}
