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
	shared bool   // reachable from more than one goroutine (for --sched shared)
	T      *RType // type of a cell object (element type for slice stores), map or chan type
	Cells  []Value
	Map    *mapData
	Chan   *chanData
	// race detector: the clocks of the synchronization addresses in the
	// object (by cell offset) and the shadow of accessed cells (immutable
	// values, nil when unused)
	clocks map[int32]vclock
	shadow []*cellShadow // by shadowIndex of the cell offset
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
	c := *o
	c.epoch = epoch
	c.hcache = 0
	c.race = nil
	if o.Cells != nil {
		c.Cells = append([]Value(nil), o.Cells...)
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
	if o.shadow != nil {
		c.shadow = append([]*cellShadow(nil), o.shadow...)
	}
	return &c
}

const chunkBits = 8
const chunkSize = 1 << chunkBits

type chunk struct {
	epoch uint64
	objs  [chunkSize]*Object
}

// heap maps object ids to objects through a directory of copy-on-write
// chunks, so that a snapshot copies only the directory and a write copies
// only the object (and its chunk) it touches.
type heap struct {
	chunks []*chunk
	next   ObjID // next free id; ids start at 1
}

func (h *heap) clone() heap {
	return heap{chunks: append([]*chunk(nil), h.chunks...), next: h.next}
}

// get returns the object for reading.
func (h *heap) get(id ObjID) *Object {
	c := int(id >> chunkBits)
	if c >= len(h.chunks) {
		return nil
	}
	return h.chunks[c].objs[id&(chunkSize-1)]
}

// mut returns the object for writing in a state of the given epoch.
func (h *heap) mut(id ObjID, epoch uint64) *Object {
	ci := int(id >> chunkBits)
	c := h.chunks[ci]
	o := c.objs[id&(chunkSize-1)]
	if o.epoch == epoch {
		return o
	}
	if c.epoch != epoch {
		nc := *c
		nc.epoch = epoch
		c = &nc
		h.chunks[ci] = c
	}
	o = o.clone(epoch)
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
	ci := int(id >> chunkBits)
	for ci >= len(h.chunks) {
		h.chunks = append(h.chunks, &chunk{epoch: epoch})
	}
	c := h.chunks[ci]
	if c.epoch != epoch {
		nc := *c
		nc.epoch = epoch
		c = &nc
		h.chunks[ci] = c
	}
	c.objs[id&(chunkSize-1)] = o
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
