package vm

import (
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
	vc   []clockPair // the race detector's clock of the goroutine (flatClock)
}

// summary returns goroutine g's summary, cached in g once g is frozen.
func (s *State) summary(g *goroutine) *gsum {
	if p := atomic.LoadPointer(&g.sum); p != nil {
		return (*gsum)(p)
	}
	h := &hasher{h: fnvOffset, s: s, ids: make(map[ObjID]int, 8), gmode: gidsNone, logGids: true}
	h.goroutine(g)
	sum := &gsum{key: h.h | 1, objs: h.queue, gids: h.gids, vc: flatClock(g.vc)}
	if g.epoch != s.epoch {
		// frozen: it belongs to an older state and is copied before any
		// write (a goroutine of this state's epoch may still be written
		// while the state is built: a spin probe or a collection hashes
		// it before the transition ends)
		atomic.StorePointer(&g.sum, unsafe.Pointer(sum))
	}
	return sum
}

// summary hashes a goroutine from its summary where the walk would hash
// it in full (hasher.goroutine).
func (h *hasher) summary(sum *gsum) {
	h.u64(sum.key)
	for _, id := range sum.objs {
		h.obj(id)
	}
	for _, id := range sum.gids {
		h.gid(id)
	}
}
