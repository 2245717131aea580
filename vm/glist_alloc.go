package vm

// Chunks with their goroutines: a chunk of a gList is allocated with its
// slice of goroutines in one object, sized to what it holds with room for
// one more (a go statement), and, when a state's list is a single chunk,
// with that list too. A transition writes the goroutine it runs, so every
// state of a search copies a chunk: with a separate 64-pointer slice and
// a separate list that was 3 allocations and ~570 bytes a state of a DFS
// on Reorder(10,1) (12 goroutines), now 1 of 176 bytes.
type (
	gChunk8 struct {
		list [1]*gChunk
		c    gChunk
		buf  [8]*goroutine
	}
	gChunk16 struct {
		list [1]*gChunk
		c    gChunk
		buf  [16]*goroutine
	}
	gChunk32 struct {
		list [1]*gChunk
		c    gChunk
		buf  [32]*goroutine
	}
	gChunk64 struct {
		list [1]*gChunk
		c    gChunk
		buf  [gChunkSize]*goroutine
	}
)

// newChunk returns a chunk of epoch holding n nil goroutines (at most
// gChunkSize) with room for at least one more (unless n is gChunkSize),
// and a list of one element to hold it (list[0] is the chunk).
func newChunk(epoch uint64, n int) (*gChunk, []*gChunk) {
	switch {
	case n < 8:
		x := &gChunk8{}
		x.c = gChunk{epoch: epoch, gs: x.buf[:n]}
		x.list[0] = &x.c
		return &x.c, x.list[:]
	case n < 16:
		x := &gChunk16{}
		x.c = gChunk{epoch: epoch, gs: x.buf[:n]}
		x.list[0] = &x.c
		return &x.c, x.list[:]
	case n < 32:
		x := &gChunk32{}
		x.c = gChunk{epoch: epoch, gs: x.buf[:n]}
		x.list[0] = &x.c
		return &x.c, x.list[:]
	}
	x := &gChunk64{}
	x.c = gChunk{epoch: epoch, gs: x.buf[:n]}
	x.list[0] = &x.c
	return &x.c, x.list[:]
}

// mutChunk returns chunk ci, made the caller's: the list of chunks copied
// if it is another state's (shared; false afterwards) and the chunk if it
// belongs to another epoch. A list of one chunk, shared, and its chunk are
// copied in one allocation.
func (l *gList) mutChunk(ci int, epoch uint64, shared *bool) *gChunk {
	c := l.chunks[ci]
	if c.epoch == epoch {
		l.own(shared)
		return c
	}
	nc, list := newChunk(epoch, len(c.gs))
	copy(nc.gs, c.gs)
	if *shared && len(l.chunks) == 1 {
		l.chunks, *shared = list, false
		return nc
	}
	l.own(shared)
	l.chunks[ci] = nc
	return nc
}
