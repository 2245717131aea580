package vm

import (
	"cmp"
	"math"
	"slices"
)

// The part of a state the hash roots (the globals) reach is walked first
// and kept from one walk to the next: most of a program's globals (its
// packages' and the standard library's) are the same objects in every
// state of a search, and a transition writes one or two of them.
//
// The walk numbers the objects the roots reach (their closure) 1, 2, …
// breadth first from the roots, then goroutines in canonical order and
// the timers number the objects outside it. Any order of the walk that
// depends only on the state's structure merges the same states: two states
// hash equally when there is a renaming of their objects that maps one
// onto the other and keeps the roots, the goroutines' canonical order and
// the timers, whatever the order the walk meets them in. Each object of
// the closure is hashed apart (rootsWalk.subs: its content with its
// references by number and the goroutine ids it names left out, as in
// gsum) and the walk hashes those in order, then the ids by rank.
//
// The closure is kept with the objects it was computed from: an object of
// the current state that is the same *Object (frozen: never written again)
// hashes the same; one that differs is hashed again, and if it references
// other objects than before (so the closure's numbering could change), the
// closure is walked again from the roots.

// rootsWalk is the kept walk of the roots' closure (one per numbering
// table; a walk holds its table alone).
type rootsWalk struct {
	m     *Machine
	roots []ObjID   // the roots it was walked from
	ids   []ObjID   // the closure in walk order: ids[i] is numbered i+1
	objs  []*Object // the object each was hashed from (nil: not frozen then)
	subs  []uint64  // the object's hash (hasher.objSub)
	refs  [][]ObjID // the objects it references, every occurrence in order
	gids  [][]int   // the goroutine ids it names, in order
	// anyGids: some object of the closure names a goroutine (or did)
	anyGids bool
	num     []int32  // by object id: its number (0: not in the closure)
	isRaced []bool   // the race summary reads the object (raced)
	raced   []int32  // the positions of those objects
	chunks  []*chunk // the heap's chunks it was walked in (nil: not frozen then)
	// dirs: the heap's directories of those chunks as the chunks were
	// last checked (nil: not frozen then)
	dirs    []*chunkDir
	byChunk [][]int32 // the positions of the closure's objects in each chunk
	// dirChunks lists, for each directory, its chunks that hold objects
	// of the closure (a directory a transition wrote is checked only at
	// those: most of its 16 chunks hold none)
	dirChunks [][]int32
	// mix is the subs hashed in order, valid when mixed (without gids)
	mix   uint64
	mixed bool
}

// rootsCache can be turned off (tests: a walk from scratch each time).
var rootsCache = true

// rootsClosure numbers the objects the roots reach (queueing them, marked
// drained; their numbers are the walk's) and returns their walk, reused
// from the table's last one where the objects are the same: a chunk of
// the heap that is the same frozen chunk holds the same objects. It
// hashes nothing: rootsHash does, once the goroutines' ranks are known.
func (h *hasher) rootsClosure(roots []ObjID) *rootsWalk {
	t, s := h.table, h.s
	c := t.roots
	if c == nil || !rootsCache || c.m != s.m || !sameRoots(c.roots, roots) {
		return h.rootsBuild(roots)
	}
	h.rw = c
	if t.prefix == c && cap(h.queue) >= len(c.ids) {
		h.queue = h.queue[:len(c.ids)] // (the table's queue begins with c.ids)
	} else {
		h.queue = append(h.queue[:0], c.ids...)
	}
	h.next = len(c.ids)
	racedChanged := false
	for di, cd := range c.dirs {
		// a directory that is the same frozen one holds the same chunks
		// (a chunk is written only after its directory is copied): skip
		// them
		d := s.heap.dir(di)
		if d != nil && d == cd {
			continue
		}
		c.dirs[di] = frozenDir(d, s)
		for _, ci32 := range c.dirChunks[di] {
			if !h.rootsChunk(c, int(ci32), &racedChanged) {
				return h.rootsBuild(roots)
			}
		}
	}
	if racedChanged {
		c.raced = c.raced[:0]
		for i, r := range c.isRaced {
			if r {
				c.raced = append(c.raced, int32(i))
			}
		}
	}
	h.raced = append(h.raced[:0], c.raced...)
	return c
}

// rootsChunk checks the closure's objects in chunk ci of the heap (one
// of a directory that changed) against the kept walk c, hashing again
// those that changed; it reports false when the closure must be walked
// again (an object is gone or references other objects than before).
func (h *hasher) rootsChunk(c *rootsWalk, ci int, racedChanged *bool) bool {
	s := h.s
	pos := c.byChunk[ci]
	ch := s.heap.chunk(ci)
	if ch == nil {
		return false
	}
	if ch == c.chunks[ci] {
		return true
	}
	for _, i := range pos {
		o := ch.objs[c.ids[i]&(chunkSize-1)]
		if o == nil {
			return false
		}
		if o == c.objs[i] {
			continue
		}
		sub, refs, gids := h.objSub(o)
		if len(h.queue) != len(c.ids) || !slices.Equal(refs, c.refs[i]) {
			return false // it references other objects
		}
		if sub != c.subs[i] {
			c.subs[i], c.mixed = sub, false
		}
		if !slices.Equal(gids, c.gids[i]) {
			c.gids[i], c.mixed = exact(gids), false
			c.anyGids = c.anyGids || len(gids) > 0
		}
		if r := raced(o); r != c.isRaced[i] {
			c.isRaced[i], *racedChanged = r, true
		}
		c.objs[i] = frozenObj(o, s)
	}
	c.chunks[ci] = frozenChunk(ch, s)
	return true
}

// sameRoots reports whether two lists of roots are equal (the same
// list, usually: the machine's).
func sameRoots(a, b []ObjID) bool {
	if len(a) != len(b) {
		return false
	}
	return len(a) == 0 || &a[0] == &b[0] || slices.Equal(a, b)
}

// rootsBuild walks the roots' closure afresh into the table's rootsWalk.
func (h *hasher) rootsBuild(roots []ObjID) *rootsWalk {
	t, s := h.table, h.s
	t.renew()
	h.rw, h.queue, h.next, h.raced = nil, h.queue[:0], 0, h.raced[:0]
	c := t.roots
	if c == nil {
		c = new(rootsWalk)
		t.roots = c
	}
	for _, id := range c.ids {
		c.num[id] = 0
	}
	c.m, c.roots = s.m, roots // (not written: a machine's roots only grow, by append)
	c.ids, c.objs, c.subs, c.isRaced, c.raced = c.ids[:0], c.objs[:0], c.subs[:0], c.isRaced[:0], c.raced[:0]
	clear(c.refs)
	clear(c.gids)
	c.refs, c.gids, c.anyGids, c.mixed = c.refs[:0], c.gids[:0], false, false
	saved := h.h
	for _, id := range roots {
		h.obj(id)
	}
	var refBuf []ObjID
	var gidBuf []int
	for ; h.next < len(h.queue); h.next++ {
		id := h.queue[h.next]
		o := s.heap.get(id)
		sub, refs, gids := h.objSub(o)
		a, b := len(refBuf), len(gidBuf)
		refBuf, gidBuf = append(refBuf, refs...), append(gidBuf, gids...)
		c.ids = append(c.ids, id)
		c.objs = append(c.objs, frozenObj(o, s))
		c.subs = append(c.subs, sub)
		c.refs = append(c.refs, refBuf[a:len(refBuf):len(refBuf)])
		c.gids = append(c.gids, gidBuf[b:len(gidBuf):len(gidBuf)])
		c.anyGids = c.anyGids || len(gids) > 0
		r := raced(o)
		c.isRaced = append(c.isRaced, r)
		if r {
			c.raced = append(c.raced, int32(h.next))
		}
	}
	h.h = saved // (the roots' numbers are the same in every state)
	if n := int(s.heap.next); len(c.num) < n {
		c.num = append(c.num, make([]int32, n-len(c.num))...)
	}
	c.chunks = reuse(c.chunks, s.heap.numChunks())
	c.dirs = reuse(c.dirs, len(c.chunks)>>dirBits)
	for di := range c.dirs {
		c.dirs[di] = frozenDir(s.heap.dir(di), s)
	}
	for ci := range c.chunks {
		if ch := s.heap.chunk(ci); ch != nil {
			c.chunks[ci] = frozenChunk(ch, s)
		}
	}
	for ci := range c.byChunk {
		c.byChunk[ci] = c.byChunk[ci][:0]
	}
	for len(c.byChunk) < len(c.chunks) {
		c.byChunk = append(c.byChunk, nil)
	}
	for i, id := range c.ids {
		c.num[id] = int32(i + 1)
		ci := int(id >> chunkBits)
		c.byChunk[ci] = append(c.byChunk[ci], int32(i))
	}
	for di := range c.dirChunks {
		c.dirChunks[di] = c.dirChunks[di][:0]
	}
	for len(c.dirChunks) < len(c.dirs) {
		c.dirChunks = append(c.dirChunks, nil)
	}
	for ci := range c.chunks {
		if len(c.byChunk[ci]) > 0 {
			di := ci >> dirBits
			c.dirChunks[di] = append(c.dirChunks[di], int32(ci))
		}
	}
	h.raced = append(h.raced, c.raced...)
	h.rw = c
	return c
}

// rootsHash hashes the closure's objects in order, naming the goroutines
// they name by rank (hasher.gid), as one word (kept when no goroutine is
// named).
func (h *hasher) rootsHash(c *rootsWalk) {
	if !c.mixed || c.anyGids {
		saved := h.h
		h.h = fnvOffset
		for i, sub := range c.subs {
			h.u64(sub)
			for _, id := range c.gids[i] {
				h.gid(id)
			}
		}
		c.mix, c.mixed = h.h, !c.anyGids
		h.h = saved
	}
	h.u64(c.mix)
}

// frozenObj returns o if it can no longer be written (it belongs to a
// state older than s, or s is sealed), else nil (also for o nil: a
// dangling reference, hash.content).
// A sealed state's own object so found is cached by its hash: the state
// is then marked (ownCached) never to be stepped in place.
func frozenObj(o *Object, s *State) *Object {
	if o != nil && s.frozen(o.epoch) {
		return o
	}
	return nil
}

// frozenDir is frozenObj for a directory of the heap (d may be nil).
func frozenDir(d *chunkDir, s *State) *chunkDir {
	if d != nil && s.frozen(d.epoch) {
		return d
	}
	return nil
}

// frozenChunk is frozenObj for a chunk of the heap.
func frozenChunk(c *chunk, s *State) *chunk {
	if s.frozen(c.epoch) {
		return c
	}
	return nil
}

// frozen reports whether a part of s of the given epoch (an object, a
// goroutine, a chunk) can no longer be written, so that a hash may cache
// what it computes from it: it belongs to an older state, or s is sealed.
// The latter marks s ownCached (StepAmongInPlace would write it).
func (s *State) frozen(epoch uint64) bool {
	if epoch != s.epoch {
		return true
	}
	if s.sealed {
		s.ownCached = true
		return true
	}
	return false
}

// raced reports whether the race summary reads object o (it has race
// detector state or is a channel).
func raced(o *Object) bool {
	return o != nil && (len(o.clocks) > 0 || o.hasShadow() || o.Chan != nil)
}

// objSub hashes object o apart: its content, the objects it references
// by their numbers (numbering and queueing new ones) and the goroutine ids
// it names left out. It returns the hash, the objects it references
// (every occurrence, in order) and the ids it names, both in buffers of
// the hasher valid until its next objSub.
func (h *hasher) objSub(o *Object) (uint64, []ObjID, []int) {
	saved, mode, log := h.h, h.gmode, h.logGids
	h.h, h.gmode, h.logGids, h.gids = fnvOffset, gidsNone, true, h.gids[:0]
	h.traced, h.tracing = h.traced[:0], true
	h.content(o)
	sub := h.h
	h.h, h.gmode, h.logGids, h.tracing = saved, mode, log, false
	return sub, h.traced, h.gids
}

// renew forgets the table's numbers (a new generation).
func (t *numbering) renew() {
	t.gen++
	if t.gen == 0 {
		clear(t.stamp)
		t.gen = 1
	}
}

// twinsInRest orders the runs of twins in ranks (orderTwins) by a walk
// of the part of the state outside the roots' closure c (which names no
// goroutine): the goroutines without a twin, the timers and what they
// reach, numbered after the closure as the walk in progress numbered it,
// with t's second hasher, which then forgets what it numbered. It
// reports false, having done nothing, when the closure is not the walk
// in progress's alone or names goroutines. Where no twin is named in the
// rest of the state and the twins of each run reference the same objects
// of it in the same places, the runs stay as they are (by id).
func (s *State) twinsInRest(t *numbering, c *rootsWalk, ranks []goRank, sums []*gsum, twin []bool) bool {
	if c == nil || c.anyGids || t.roots != c || len(t.h.queue) != len(c.ids) {
		return false
	}
	p := &t.peek
	*p = hasher{h: fnvOffset, s: s, table: t, rw: c, queue: t.h.queue, next: len(c.ids),
		gmode: gidsFirst, first: t.firstMap(), raced: p.raced[:0]}
	defer func() {
		for _, id := range p.queue[len(c.ids):] {
			t.stamp[id] = 0 // (generations start at 1)
		}
		p.s, p.queue, p.table, p.rw = nil, nil, nil, nil
	}()
	p.restOfState(s, sums, twin)
	for i, r := range ranks {
		if !twin[r.at] {
			continue
		}
		_, named := p.first.get(int(r.id))
		if named || i > 0 && ranks[i-1].key == r.key && !sameRefs(sums[ranks[i-1].at].objs, sums[r.at].objs, p) {
			sortTwins(t, ranks, sums, p)
			return true
		}
	}
	return true
}

// restOfState hashes what orders twin goroutines besides the roots: the
// summaries of the goroutines that are not twins and the timers, then
// what they reach.
func (p *hasher) restOfState(s *State, sums []*gsum, twin []bool) {
	for i, sum := range sums {
		if !twin[i] {
			p.summary(sum)
		}
	}
	for _, tm := range s.timers {
		p.gid(tm.g)
		p.obj(tm.ch.Obj)
		p.obj(tm.id)
	}
	p.drain()
}

// sortTwins sorts each run of twins in ranks by where each first appears
// in the walk p, then by the objects of it they reference (refsKey), then
// by id.
func sortTwins(t *numbering, ranks []goRank, sums []*gsum, p *hasher) {
	t.twinKeys = reuseDirty(t.twinKeys, len(ranks)) // (by index in State.gs; set for each twin)
	keys := t.twinKeys
	for i := 0; i < len(ranks); {
		j := i + 1
		for j < len(ranks) && ranks[j].key == ranks[i].key {
			j++
		}
		if j-i > 1 {
			run := ranks[i:j]
			for _, r := range run {
				k := twinKey{first: math.MaxUint64, refs: refsKey(sums[r.at], p)}
				if f, ok := p.first.get(int(r.id)); ok {
					k.first = uint64(f)
				}
				keys[r.at] = k
			}
			slices.SortFunc(run, func(a, b goRank) int {
				ka, kb := &keys[a.at], &keys[b.at]
				switch {
				case ka.first != kb.first:
					return cmp.Compare(ka.first, kb.first)
				case ka.refs != kb.refs:
					return cmp.Compare(ka.refs, kb.refs)
				}
				return cmp.Compare(a.id, b.id)
			})
		}
		i = j
	}
}

// sameRefs reports whether two object lists have the same numbers in the
// walk peek (refsKey: an object it did not reach counts as -1).
func sameRefs(a, b []ObjID, peek *hasher) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] == b[i] {
			continue
		}
		if _, ok := peek.number(a[i]); ok {
			return false
		}
		if _, ok := peek.number(b[i]); ok {
			return false
		}
	}
	return true
}

// firstMap returns the table's map for hasher.first, emptied.
func (t *numbering) firstMap() *firstSeen {
	t.first.reset()
	return &t.first
}

// firstSeen numbers goroutine ids in the order they are first noted
// (hasher.first): by id in a table with generation stamps (reused without
// clearing), ids past firstDense in a map.
type firstSeen struct {
	gen   uint32
	stamp []uint32
	pos   []int32
	n     int
	big   map[int]int
}

// firstDense bounds the ids firstSeen keeps in its table.
const firstDense = 1 << 16

// reset forgets every id noted.
func (f *firstSeen) reset() {
	f.gen++
	if f.gen == 0 {
		clear(f.stamp)
		f.gen = 1
	}
	f.n = 0
	if len(f.big) > 0 {
		clear(f.big)
	}
}

// note gives id the next position unless it has one.
func (f *firstSeen) note(id int) {
	if _, ok := f.get(id); ok {
		return
	}
	switch {
	case id >= 0 && id < firstDense:
		if id >= len(f.stamp) {
			size := min(id+id/4+64, firstDense)
			f.stamp = append(f.stamp, make([]uint32, size-len(f.stamp))...)
			f.pos = append(f.pos, make([]int32, size-len(f.pos))...)
		}
		f.stamp[id], f.pos[id] = f.gen, int32(f.n)
	default:
		if f.big == nil {
			f.big = map[int]int{}
		}
		f.big[id] = f.n
	}
	f.n++
}

// get returns id's position, if it has one.
func (f *firstSeen) get(id int) (int, bool) {
	if id >= 0 && id < firstDense {
		if id < len(f.stamp) && f.stamp[id] == f.gen {
			return int(f.pos[id]), true
		}
		return 0, false
	}
	p, ok := f.big[id]
	return p, ok
}
