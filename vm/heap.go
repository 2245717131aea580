package vm

import "unsafe"

// objKind says what an object holds.
type objKind uint8

const (
	objCells objKind = iota // plain memory: variables, structs, arrays, slice backing stores
	objMap                  // a map
	objChan                 // a channel
)

// Object is one heap object. Objects are shared between states; an object
// whose epoch differs from the running state's epoch is frozen and is
// copied before it is written (copy-on-write).
type Object struct {
	epoch  uint64
	kind   objKind
	shared bool // reachable from more than one goroutine (for --sched shared)
	// readOnly: a variable never written once it can be shared, or a
	// channel never closed (byvalue.go): its accesses are not checked for
	// races
	readOnly bool
	T        *RType     // type of a cell object (element type for slice stores), map or chan type
	Cells    []Value    // plain memory (nil when packed; read through cell, cells.go)
	pk       *packed    // plain memory of numbers, packed (packed.go)
	cp       *cellPages // plain memory of cellPageMin cells or more, in pages (cellpages.go; Cells is nil)
	Map      *mapData
	Chan     *chanData
	// race detector: the clocks of the synchronization addresses in the
	// object (by cell offset) and the shadow of accessed cells (immutable
	// values, nil when unused)
	clocks map[int32]vclock
	shadow []*cellShadow       // by shadowIndex of the cell offset
	shp    *paged[*cellShadow] // the shadow of an object of cellPageMin cells or more, in pages (cellpages.go; shadow is nil)
	// hcache caches the content hash of an object without references
	// (its hash does not depend on the numbering of other objects); 0 =
	// not computed. Accessed atomically: frozen objects are shared.
	hcache uint64
	// race caches the race detector's state of the object as the state
	// hash reads it (a *raceView, see race_hash.go; nil: not computed),
	// stored only once the object is frozen. Accessed atomically.
	race unsafe.Pointer
}

func (o *Object) clone(epoch uint64) *Object {
	c := newObjCells(len(o.Cells))
	cells := c.Cells
	*c = *o
	c.epoch = epoch
	c.hcache = 0
	c.race = nil
	if o.Cells != nil {
		if cells == nil && len(o.Cells) > 0 {
			cells = make([]Value, len(o.Cells))
		}
		copy(cells, o.Cells)
		c.Cells = cells // (nil for none, as before)
	}
	if o.pk != nil {
		c.pk = o.pk.clone()
	}
	if o.cp != nil {
		c.cp = o.cp.clone()
	}
	if o.Map != nil {
		c.Map = o.Map.clone()
	}
	if o.Chan != nil {
		c.Chan = o.Chan.clone()
	}
	if o.clocks != nil {
		c.clocks = make(map[int32]vclock, len(o.clocks))
		for k, v := range o.clocks {
			c.clocks[k] = v
		}
	}
	if o.shp != nil {
		c.shp = o.shp.clone()
	}
	if o.shadow != nil {
		c.shadow = append([]*cellShadow(nil), o.shadow...)
	}
	return c
}

// Objects with their cells: a copy of an object of up to 4 cells is
// allocated with them, in one object (a transition writes a variable or
// two: their copies were 2 of the 15 allocations a state of a DFS).
type (
	objCells1 struct {
		o Object
		c [1]Value
	}
	objCells2 struct {
		o Object
		c [2]Value
	}
	objCells4 struct {
		o Object
		c [4]Value
	}
)

// newObjCells returns a zero object with n zero cells, or with no cells
// (nil) when n is 0 or more than 4.
func newObjCells(n int) *Object {
	switch {
	case n == 1:
		x := &objCells1{}
		x.o.Cells = x.c[:]
		return &x.o
	case n == 2:
		x := &objCells2{}
		x.o.Cells = x.c[:]
		return &x.o
	case n == 3, n == 4:
		x := &objCells4{}
		x.o.Cells = x.c[:n:n]
		return &x.o
	}
	return &Object{}
}

const chunkBits = 4
const chunkSize = 1 << chunkBits

// dirBits: a directory holds 1<<dirBits chunks.
const dirBits = 4
const dirSize = 1 << dirBits

type chunk struct {
	epoch uint64
	objs  [chunkSize]*Object
}

// dirChunk is a directory and one of its chunks, copied together
// (mutChunk).
type dirChunk struct {
	d chunkDir
	c chunk
}

// A heap's list of directories copied with a directory and a chunk (the
// first write of a transition): one allocation, not three. Reorder(10,1)
// has 9 directories.
type (
	dirsChunk4 struct {
		list [4]*chunkDir
		dirChunk
	}
	dirsChunk12 struct {
		list [12]*chunkDir
		dirChunk
	}
	dirsChunk24 struct {
		list [24]*chunkDir
		dirChunk
	}
)

// sharedChunk is mutChunk's first write to a heap whose list of
// directories is its parent's: if chunk ci exists, it returns it copied
// with its directory and the list, in one allocation when the list is
// short (nil: mutChunk copies them).
func (h *heap) sharedChunk(ci int, epoch uint64) *chunk {
	di, k := ci>>dirBits, ci&(dirSize-1)
	if di >= len(h.dirs) {
		return nil
	}
	d := h.dirs[di]
	c := d.chunks[k]
	if c == nil || d.epoch == epoch || c.epoch == epoch {
		return nil
	}
	var list []*chunkDir
	var x *dirChunk
	switch n := len(h.dirs); {
	case n <= 4:
		y := &dirsChunk4{}
		list, x = y.list[:n], &y.dirChunk
	case n <= 12:
		y := &dirsChunk12{}
		list, x = y.list[:n], &y.dirChunk
	case n <= 24:
		y := &dirsChunk24{}
		list, x = y.list[:n], &y.dirChunk
	default:
		return nil
	}
	copy(list, h.dirs)
	x.d, x.c = *d, *c
	x.d.epoch, x.c.epoch = epoch, epoch
	x.d.chunks[k] = &x.c
	list[di] = &x.d
	h.dirs = list
	return &x.c
}

// chunkDir is a directory of chunks (nil: none yet).
type chunkDir struct {
	epoch  uint64
	chunks [dirSize]*chunk
}

// heap maps object ids to objects through directories of copy-on-write
// chunks, themselves copy-on-write, so that a snapshot copies only the
// list of directories and a write copies only the object it touches, its
// chunk (16 pointers) and its directory (16). With chunks of 64 objects a
// DFS on Reorder(10,1) took 75,500 instructions a state, with 32 67,400
// (cachegrind, BenchmarkDFSReorder); directories of 16 chunks instead of
// 64 allocate 12 % fewer bytes a state there (a write copied 520 bytes of
// directory); chunks of 16 objects instead of 32 another 4 % fewer
// (79 bytes a state), at the same instruction count.
type heap struct {
	dirs []*chunkDir
	next ObjID // next free id; ids start at 1
	// shared: dirs is the parent state's list (clone shares it); it is
	// copied before it is written (mutChunk): many transitions write no
	// object
	shared bool
	// allocCells counts the cells allocated since the last collection,
	// the pages of packed objects included (in cells of 16 bytes: the
	// objects' page tables point at it, packed.acct)
	allocCells int64
}

func (h *heap) clone() heap {
	return heap{dirs: h.dirs, next: h.next, shared: true, allocCells: h.allocCells}
}

// chunk returns chunk ci for reading (nil: none).
func (h *heap) chunk(ci int) *chunk {
	d := ci >> dirBits
	if d >= len(h.dirs) {
		return nil
	}
	return h.dirs[d].chunks[ci&(dirSize-1)]
}

// dir returns directory di for reading (nil: none).
func (h *heap) dir(di int) *chunkDir {
	if di >= len(h.dirs) {
		return nil
	}
	return h.dirs[di]
}

// numChunks bounds the chunk indexes (chunk returns nil from there).
func (h *heap) numChunks() int { return len(h.dirs) << dirBits }

// mutChunk returns chunk ci for writing in a state of the given epoch,
// copying it and its directory first if they are older (and making them
// if there are none).
func (h *heap) mutChunk(ci int, epoch uint64) *chunk {
	di := ci >> dirBits
	if h.shared {
		h.shared = false
		if c := h.sharedChunk(ci, epoch); c != nil {
			return c
		}
		h.dirs = append(make([]*chunkDir, 0, max(len(h.dirs), di+1)), h.dirs...)
	}
	for di >= len(h.dirs) {
		h.dirs = append(h.dirs, &chunkDir{epoch: epoch})
	}
	d := h.dirs[di]
	k := ci & (dirSize - 1)
	if d.epoch != epoch {
		if c := d.chunks[k]; c != nil && c.epoch != epoch {
			// both copied, in one allocation (a transition that writes
			// an object mostly writes one of its directory)
			x := &dirChunk{d: *d, c: *c}
			x.d.epoch, x.c.epoch = epoch, epoch
			x.d.chunks[k] = &x.c
			h.dirs[di] = &x.d
			return &x.c
		}
		nd := *d
		nd.epoch = epoch
		d = &nd
		h.dirs[di] = d
	}
	c := d.chunks[k]
	switch {
	case c == nil:
		c = &chunk{epoch: epoch}
		d.chunks[k] = c
	case c.epoch != epoch:
		nc := *c
		nc.epoch = epoch
		c = &nc
		d.chunks[k] = c
	}
	return c
}

// get returns the object for reading.
func (h *heap) get(id ObjID) *Object {
	c := h.chunk(int(id >> chunkBits))
	if c == nil {
		return nil
	}
	return c.objs[id&(chunkSize-1)]
}

// mut returns the object for writing in a state of the given epoch.
func (h *heap) mut(id ObjID, epoch uint64) *Object {
	ci := int(id >> chunkBits)
	o := h.chunk(ci).objs[id&(chunkSize-1)]
	if o.epoch == epoch {
		return o
	}
	c := h.mutChunk(ci, epoch)
	o = o.clone(epoch)
	if o.pk != nil {
		o.pk.acct = &h.allocCells
	}
	c.objs[id&(chunkSize-1)] = o
	return o
}

// alloc adds a new object and returns its id.
func (h *heap) alloc(o *Object, epoch uint64) ObjID {
	if h.next == 0 {
		h.next = 1
	}
	id := h.next
	h.next++
	o.epoch = epoch
	if len(o.Cells) >= cellPageMin && o.kind == objCells {
		o.cp, o.Cells = newCellPages(o.Cells, epoch), nil
	}
	if o.pk != nil {
		o.pk.acct = &h.allocCells
	}
	h.mutChunk(int(id>>chunkBits), epoch).objs[id&(chunkSize-1)] = o
	return id
}

// mapData is an insertion-ordered map. Deleted entries leave tombstones so
// that iteration positions stay valid.
type mapData struct {
	index map[any]int // key -> position in entries
	ents  []mapEntry
	live  int
}

type mapEntry struct {
	k, v Value
	dead bool
}

func newMapData() *mapData { return &mapData{index: map[any]int{}} }

func (m *mapData) clone() *mapData {
	c := &mapData{index: make(map[any]int, len(m.index)), live: m.live}
	c.ents = make([]mapEntry, 0, m.live)
	for _, e := range m.ents {
		if e.dead {
			continue
		}
		c.index[keyOf(e.k)] = len(c.ents)
		c.ents = append(c.ents, e)
	}
	if len(c.ents) != len(m.ents) {
		// Compaction would invalidate iterators' positions; keep tombstones.
		c.ents = append([]mapEntry(nil), m.ents...)
		c.index = make(map[any]int, len(m.index))
		for k, v := range m.index {
			c.index[k] = v
		}
	}
	return c
}

func (m *mapData) lookup(k Value) (Value, bool) {
	if i, ok := m.index[keyOf(k)]; ok {
		return m.ents[i].v, true
	}
	return nil, false
}

func (m *mapData) set(k, v Value) {
	key := keyOf(k)
	if i, ok := m.index[key]; ok {
		m.ents[i].v = v
		return
	}
	m.index[key] = len(m.ents)
	m.ents = append(m.ents, mapEntry{k: k, v: v})
	m.live++
}

func (m *mapData) del(k Value) {
	key := keyOf(k)
	if i, ok := m.index[key]; ok {
		m.ents[i] = mapEntry{dead: true}
		delete(m.index, key)
		m.live--
	}
}

func (m *mapData) clear() {
	for i := range m.ents {
		m.ents[i] = mapEntry{dead: true}
	}
	m.index = map[any]int{}
	m.live = 0
}
