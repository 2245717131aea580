package vm

import "iter"

// gList is a state's list of live goroutines, sorted by id, stored in
// chunks of at most gChunkSize so that a transition that writes one
// goroutine of thousands copies the list of chunks and one chunk, not the
// whole list: every branching state of a search path keeps its own list,
// and a program with thousands of goroutines (GoKer's Kubernetes58107:
// ~5,000) made those copies the largest part of a search's memory (40 KB
// a state). A new state shares its parent's chunks (State.gsShared: the
// list of chunks too); a chunk belongs to the state whose epoch it
// carries, and is copied before any other state writes it.
type gList struct {
	chunks []*gChunk
	n      int
}

// gChunk is a run of consecutive goroutines of a gList (never empty).
type gChunk struct {
	epoch uint64
	gs    []*goroutine
}

// gChunkSize is the most goroutines a chunk holds.
const gChunkSize = 64

// newGList returns a list of the goroutines gs (sorted by id), whose
// chunks belong to epoch.
func newGList(epoch uint64, gs []*goroutine) gList {
	var l gList
	for len(gs) > 0 {
		k := min(len(gs), gChunkSize)
		c := &gChunk{epoch: epoch, gs: make([]*goroutine, k, gChunkSize)}
		copy(c.gs, gs[:k])
		l.chunks = append(l.chunks, c)
		l.n += k
		gs = gs[k:]
	}
	return l
}

// len returns the number of goroutines.
func (l *gList) len() int { return l.n }

// all yields the goroutines in id order.
func (l *gList) all() iter.Seq[*goroutine] {
	return func(yield func(*goroutine) bool) {
		for _, c := range l.chunks {
			for _, g := range c.gs {
				if !yield(g) {
					return
				}
			}
		}
	}
}

// backward yields the goroutines newest (highest id) first.
func (l *gList) backward() iter.Seq[*goroutine] {
	return func(yield func(*goroutine) bool) {
		for ci := len(l.chunks) - 1; ci >= 0; ci-- {
			gs := l.chunks[ci].gs
			for i := len(gs) - 1; i >= 0; i-- {
				if !yield(gs[i]) {
					return
				}
			}
		}
	}
}

// flatten copies the goroutines, in id order, into dst (of length len()).
func (l *gList) flatten(dst []*goroutine) {
	k := 0
	for _, c := range l.chunks {
		k += copy(dst[k:], c.gs)
	}
}

// find returns the chunk and the index in it of goroutine id, or -1, -1.
func (l *gList) find(id int) (int, int) {
	cs := l.chunks
	lo, hi := 0, len(cs)
	for lo < hi { // the last chunk whose first id is at most id
		mid := int(uint(lo+hi) >> 1)
		if cs[mid].gs[0].id <= id {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	ci := lo - 1
	if ci < 0 {
		return -1, -1
	}
	gs := cs[ci].gs
	lo, hi = 0, len(gs)
	for lo < hi {
		mid := int(uint(lo+hi) >> 1)
		if gs[mid].id < id {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	if lo < len(gs) && gs[lo].id == id {
		return ci, lo
	}
	return -1, -1
}

// get returns goroutine id, or nil.
func (l *gList) get(id int) *goroutine {
	if ci, i := l.find(id); ci >= 0 {
		return l.chunks[ci].gs[i]
	}
	return nil
}

// own makes the list of chunks the caller's (shared says it is another
// state's; it is false afterwards).
func (l *gList) own(shared *bool) {
	if *shared {
		l.chunks = append(make([]*gChunk, 0, len(l.chunks)+1), l.chunks...)
		*shared = false
	}
}

// set replaces the goroutine at (ci, i) (found by find) with g.
func (l *gList) set(ci, i int, g *goroutine, epoch uint64, shared *bool) {
	l.mutChunk(ci, epoch, shared).gs[i] = g
}

// push appends g, whose id is higher than every other's.
func (l *gList) push(g *goroutine, epoch uint64, shared *bool) {
	if k := len(l.chunks); k > 0 && len(l.chunks[k-1].gs) < gChunkSize {
		c := l.mutChunk(k-1, epoch, shared)
		c.gs = append(c.gs, g)
	} else {
		l.own(shared)
		c, _ := newChunk(epoch, 1)
		c.gs[0] = g
		l.chunks = append(l.chunks, c)
	}
	l.n++
}

// deadIn counts the goroutines of c that have ended.
func deadIn(c *gChunk) int {
	dead := 0
	for _, g := range c.gs {
		if g.status == gDead {
			dead++
		}
	}
	return dead
}

// liveCopy returns a new chunk of the live goroutines of c, of which there
// are live, with the one-chunk list allocated with it (newChunk).
func liveCopy(c *gChunk, live int, epoch uint64) (*gChunk, []*gChunk) {
	nc, list := newChunk(epoch, live)
	k := 0
	for _, g := range c.gs {
		if g.status != gDead {
			nc.gs[k] = g
			k++
		}
	}
	return nc, list
}

// removeDead drops the goroutines whose status is gDead. Chunks left with
// few goroutines are merged again when the list has more than twice the
// chunks it needs.
func (l *gList) removeDead(epoch uint64, shared *bool) {
	if *shared && len(l.chunks) == 1 { // the common case: one chunk, copied with its list
		c := l.chunks[0]
		dead := deadIn(c)
		if dead == 0 {
			return
		}
		l.n -= dead
		*shared = false
		if dead == len(c.gs) {
			l.chunks = nil
			return
		}
		_, l.chunks = liveCopy(c, len(c.gs)-dead, epoch)
		return
	}
	l.own(shared)
	out := l.chunks[:0]
	for _, c := range l.chunks {
		dead := deadIn(c)
		if dead == 0 {
			out = append(out, c)
			continue
		}
		l.n -= dead
		if dead == len(c.gs) {
			continue
		}
		nc, _ := liveCopy(c, len(c.gs)-dead, epoch)
		out = append(out, nc)
	}
	clear(l.chunks[len(out):])
	l.chunks = out
	if len(l.chunks) > 2*((l.n+gChunkSize-1)/gChunkSize)+1 {
		flat := make([]*goroutine, l.n)
		l.flatten(flat)
		*l = newGList(epoch, flat)
	}
}

// slice returns the goroutines in id order, in a new slice.
func (l *gList) slice() []*goroutine {
	out := make([]*goroutine, l.n)
	l.flatten(out)
	return out
}
