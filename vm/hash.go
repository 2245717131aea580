package vm

import (
	"math"
	"math/bits"
	"sync/atomic"
)

// hasher computes a canonical state hash: objects are numbered in the
// order they are reached from the roots (globals, then goroutines by id,
// their frames innermost first), so two states that differ only in object
// ids (allocation order) hash equally. FNV-1a, 64 bits.
type hasher struct {
	h     uint64
	s     *State
	ids   map[ObjID]int
	table *numbering // instead of ids (State.wholeHasher)
	queue []ObjID
	next  int  // queue[:next] are hashed
	refs  bool // a reference to another object was hashed
	work  int  // clocks and clock entries the race summary read
	gmode int  // how goroutines are named (gid)
	// gpos is 1 + the position of each live goroutine in the canonical
	// order, by id (gidsCanonical; gposMap when ids are too sparse)
	gpos    []int32
	gposMap map[int]int
	order   []*goroutine // the live goroutines in canonical order
	sums    []*gsum      // their summaries
	raced   []int32      // the indexes in queue of the objects with race detector state or a channel
	first   *firstSeen   // gidsFirst: the order in which goroutine ids first appeared
	// logGids: record the ids gid is given in gids (State.summary)
	logGids bool
	gids    []int
	// small: the objects are numbered by their place in queue (found by
	// scanning it) until there are more than smallIDs, then in ids
	small bool
	live  bool       // hash only the registers live at each frame's position (liveness.go)
	rw    *rootsWalk // numbers the roots' closure (hash_roots.go)
	own   *owners    // the goroutine alone that reaches each object (race_owner.go), or nil
	// tracing: obj appends every object it is given to traced (objSub)
	tracing bool
	traced  []ObjID
	// gc: a walk of the collector's marking (natives_gc.go), which does
	// not follow weak pointers
	gc bool
}

const fnvOffset = 14695981039346656037
const fnvPrime = 1099511628211

func (h *hasher) byte(b byte) {
	h.h ^= uint64(b)
	h.h *= fnvPrime
}

// u64 mixes in a 64-bit word at once (a multiply-rotate round, as in
// xxHash64) rather than byte by byte.
func (h *hasher) u64(x uint64) {
	h.h ^= x * 0xc2b2ae3d27d4eb4f
	h.h = bits.RotateLeft64(h.h, 31) * 0x9e3779b185ebca87
}

func (h *hasher) int(x int64) { h.u64(uint64(x)) }

// gid hashes a goroutine id by its position in the state's canonical
// order of goroutines (-1 for one that ended, -2 for none), unless the
// program has seen ids. The canonical order sorts the live goroutines by
// what each one alone is (gsum.key), ties by id, so that states that
// differ only by a renaming of goroutines (the same work started in
// another order, identical workers that took turns differently) hash
// equally. The VM's behaviour does not depend on the ids themselves:
// choices are listed in id order (the same choices, listed otherwise),
// new goroutines get fresh ids; only the text of runtime.Stack shows
// them, and a state where the program has seen that text hashes ids as
// they are (State.idsSeen). Every goroutine id the hash covers goes
// through gid: goroutines, channel queues, timers, Cond queues, the
// RWMutex writer (goidCell), the race detector's accesses.
func (h *hasher) gid(id int) {
	switch {
	case h.gmode == gidsRaw:
		h.int(int64(id))
	case h.gmode == gidsNone:
		h.byte(0x5a)
		if h.logGids {
			h.gids = append(h.gids, id)
		}
	case h.gmode == gidsFirst:
		h.first.note(id)
	case id == 0:
		h.int(-2)
	default:
		p := -1
		if h.gposMap != nil {
			if q, ok := h.gposMap[id]; ok {
				p = q
			}
		} else if id > 0 && id < len(h.gpos) {
			p = int(h.gpos[id]) - 1
		}
		h.int(int64(p))
	}
}

func (h *hasher) str(s string) {
	h.int(int64(len(s)))
	for i := 0; i < len(s); i++ {
		h.byte(s[i])
	}
}

func (h *hasher) obj(id ObjID) {
	if id == 0 {
		h.int(0)
		return
	}
	h.refs = true
	if h.tracing {
		h.traced = append(h.traced, id)
	}
	// number's two lookups of a whole walk here, not in a call (obj is
	// called ~45 times a state of a DFS)
	var n int
	var ok bool
	if c := h.rw; c != nil && int(id) < len(c.num) && c.num[id] != 0 {
		n, ok = int(c.num[id]), true
	} else if t := h.table; t != nil {
		n, ok = t.get(id)
	} else {
		n, ok = h.number(id)
	}
	if !ok {
		n = len(h.queue) + 1
		switch {
		case h.table != nil:
			h.table.set(id, n)
		case h.small && n > smallIDs:
			// too many to scan: number them in the map from now on
			h.small = false
			for i, q := range h.queue {
				h.ids[q] = i + 1
			}
			h.ids[id] = n
		case !h.small:
			h.ids[id] = n
		}
		h.queue = append(h.queue, id)
	}
	if h.own != nil {
		h.own.note(n-1, !ok)
	}
	h.int(int64(n))
}

func (h *hasher) value(v Value) {
	switch x := v.(type) {
	case nil:
		h.byte(0)
	case bool:
		h.byte(1)
		if x {
			h.byte(1)
		} else {
			h.byte(0)
		}
	case int, int8, int16, int32, int64, uint, uint8, uint16, uint32, uint64, uintptr:
		h.byte(2)
		h.u64(toUint64(x))
	case float32:
		h.byte(3)
		h.u64(math.Float64bits(float64(x)))
	case float64:
		h.byte(3)
		h.u64(math.Float64bits(x))
	case complex64:
		h.byte(4)
		h.u64(math.Float64bits(float64(real(x))))
		h.u64(math.Float64bits(float64(imag(x))))
	case complex128:
		h.byte(4)
		h.u64(math.Float64bits(real(x)))
		h.u64(math.Float64bits(imag(x)))
	case string:
		h.byte(5)
		h.str(x)
	case Pointer:
		h.byte(6)
		h.obj(x.Obj)
		h.int(int64(x.Off))
	case Slice:
		h.byte(7)
		h.obj(x.Obj)
		h.int(int64(x.Off))
		h.int(int64(x.Len))
		h.int(int64(x.Cap))
	case Map:
		h.byte(8)
		h.obj(x.Obj)
	case Chan:
		h.byte(9)
		h.obj(x.Obj)
	case *Closure:
		h.byte(10)
		h.refs = true
		if x != nil {
			if x.Fn != nil {
				h.int(int64(h.s.m.fnID(x.Fn)))
			}
			if x.Native != nil {
				h.str(x.Native.name)
			}
			if x.Conv != nil {
				for _, k := range x.Conv.kinds {
					h.byte(byte(k))
				}
			}
			for _, e := range x.Env {
				h.value(e)
			}
			h.value(x.Bound)
		}
	case Iface:
		h.byte(11)
		if x.T != nil {
			h.int(int64(x.T.ID))
			h.value(x.V)
		}
	case []Value:
		h.byte(12)
		h.int(int64(len(x)))
		for _, c := range x {
			h.value(c)
		}
	case Tuple:
		h.byte(13)
		for _, c := range x {
			h.value(c)
		}
	case *rangeIter:
		h.byte(14)
		h.str(x.str)
		h.obj(x.m)
		h.int(int64(x.pos))
	case deferStack:
		h.byte(15)
		h.int(int64(x.depth))
	case nativeRef:
		h.byte(16)
		h.refs = true
		x.hashInto(h)
	case goidCell:
		h.byte(18)
		h.refs = true // its rank depends on the state: not cached (cells)
		h.gid(int(x &^ goidHeld))
		h.byte(byte(x >> 31))
	default:
		h.byte(17)
	}
}

// cells hashes the cells of a plain object. The hash of an object without
// references is cached in the object (it does not depend on numbering).
func (h *hasher) cells(o *Object) uint64 {
	if c := atomic.LoadUint64(&o.hcache); c != 0 {
		return c
	}
	if o.pk != nil { // numbers only (packed.go); cached once frozen only
		frozen := h.s == nil || frozenObj(o, h.s) != nil
		var live uint64 // the epoch of the pages still written (0: none)
		if !frozen {
			live = h.s.epoch
		}
		sub := o.pk.hash(live) | 1
		if frozen {
			atomic.StoreUint64(&o.hcache, sub)
		}
		return sub
	}
	saved, savedRefs := h.h, h.refs
	h.h, h.refs = fnvOffset, false
	for c := range o.refCells() {
		h.value(c)
	}
	sub, refs := h.h|1, h.refs
	h.h, h.refs = saved, savedRefs || refs
	if !refs {
		if h.s != nil && o.epoch == h.s.epoch {
			// (cached while the object may still be written: its next
			// write is in a copy unless the state is stepped in place)
			h.s.ownCached = true
		}
		atomic.StoreUint64(&o.hcache, sub)
	}
	return sub
}

// Hash returns the canonical hash of the state (program state only: not
// its output, depth or history).
func (s *State) Hash() uint64 {
	if s.hashed {
		return s.hash
	}
	h := s.walk(s.m.hashRoots)
	defer h.release()
	c := h.h
	s.chash, s.chashed = c, true
	if s.race != nil {
		h.raceSummary()
	}
	s.hashWork = int32(min(len(h.queue)+s.gs.len()+h.work, math.MaxInt32))
	// the goroutines that spin in this very state (see time.go): time
	// passes in it when they are all that can run
	for g := range s.gs.all() {
		if g.spin != nil && g.spin.spinning && g.spin.fp == c {
			h.gid(g.id)
		}
	}
	s.hash, s.hashed = h.h, true
	s.setRanks(h.order, h.sums)
	return s.hash
}

// HashWork returns the size of the state's hash (Hash): the objects and
// goroutines it walks and the race detector's clocks it reads. A search
// that hashes every state (the visited set) pays about this much per
// state.
func (s *State) HashWork() int {
	s.Hash()
	return int(s.hashWork)
}

// contentHash returns the hash of the program's state without the spin
// records of its goroutines (what a probe for spinning compares).
func (s *State) contentHash() uint64 {
	if !s.chashed {
		h := s.walk(s.m.hashRoots)
		s.chash, s.chashed = h.h, true
		h.release()
	}
	return s.chash
}

// walk traverses the state from the given global roots, the goroutines
// and the timers, numbering the objects it reaches (the hasher's ids).
func (s *State) walk(roots []ObjID) *hasher { return s.walkClock(roots, clockWhole) }

// clockMode is what a walk hashes of the virtual clock.
type clockMode uint8

const (
	clockWhole clockMode = iota // the clock, and the timers by their time left
	clockLeft                   // not the clock: the timers by their time left (the hang check)
	clockNone                   // not the clock: the timers by when they fire (a loop polling the clock, time.go)
)

// walkClock is walk with the clock hashed as mode says. Every walk hashes
// only the registers some instruction may still read (liveness.go: a tick
// received and dropped).
func (s *State) walkClock(roots []ObjID, mode clockMode) *hasher {
	return s.walkPermuted(roots, mode, nil)
}

// walkPermuted is walkClock with the canonical order of the goroutines
// changed by perm (nil: none) before the walk names them: the walk of the
// state in which the goroutines perm moves are renamed so (twins.go).
func (s *State) walkPermuted(roots []ObjID, mode clockMode, perm func(gs []*goroutine, sums []*gsum)) *hasher {
	h := s.wholeHasher()
	h.live = true // (summary: the registers live at each frame's position)
	// globals first, in their fixed order, and all they reach
	c := h.rootsClosure(roots)
	gs, sums := s.canonicalOrder(c, roots, h.table)
	if perm != nil {
		perm(gs, sums)
	}
	if s.idsSeen {
		h.byte(0xa5) // ids as they are: a state of another kind
		h.gmode = gidsRaw
	} else {
		if s.nextG <= 4*len(gs)+1024 {
			h.table.gpos = reuse(h.table.gpos, s.nextG)
			h.gpos = h.table.gpos
			for i, g := range gs {
				h.gpos[g.id] = int32(i + 1)
			}
		} else {
			h.gposMap = make(map[int]int, len(gs))
			for i, g := range gs {
				h.gposMap[g.id] = i
			}
		}
	}
	h.order, h.sums = gs, sums
	h.rootsHash(c)
	if s.race != nil { // which goroutine alone reaches an object (race_owner.go)
		h.own = h.table.ownersFor(len(h.queue), h.next)
	}
	for k, sum := range sums {
		if h.own != nil {
			h.own.cur = int32(k + 1)
		}
		h.summary(sum)
	}
	if h.own != nil {
		h.own.cur = -1 // (the timers' objects and the rest: shared)
	}
	if s.data != nil { // symbolic runs: the path condition and a pending data choice
		s.data.hashInto(h)
	}
	if mode == clockWhole {
		h.int(s.clock)
		if s.nowReads == s.clock+1 { // the next reading advances the clock
			h.int(-1)
		}
	}
	s.hashFiles(h)
	if s.numGC != 0 { // collections the program forced and can read back
		h.int(-3)
		h.int(int64(s.numGC))
		h.int(s.forcedGCAt)
	}
	if s.entry == EntryExample && s.out != nil { // an example's output is compared at its end (example.go)
		h.int(-4)
		h.u64(s.out.sum)
	}
	for e := s.env; e != nil; e = e.next { // the environment's changes
		h.str(e.key)
		h.str(e.value)
		if e.set {
			h.int(1)
		}
	}
	for _, tm := range s.timers {
		if mode == clockNone {
			h.int(tm.when)
		} else {
			h.int(tm.when - s.clock)
		}
		h.gid(tm.g)
		h.obj(tm.ch.Obj)
		h.obj(tm.id)
		if tm.fn != nil {
			h.value(tm.fn)
		}
		if tm.late {
			h.byte(1)
		}
	}
	if s.afterLife() { // (the timers set from now on are late)
		h.int(-5)
	}
	h.drain()
	return h
}

// drain hashes the objects queued so far and those they reach.
func (h *hasher) drain() {
	s := h.s
	for ; h.next < len(h.queue); h.next++ {
		o := s.heap.get(h.queue[h.next])
		if raced(o) {
			h.raced = append(h.raced, int32(h.next)) // (raceSummary)
		}
		if h.own != nil {
			h.own.drained(h.next)
		}
		h.content(o)
	}
	if h.own != nil {
		h.own.finish()
	}
}

// content hashes object o's content (the objects it references are
// numbered and queued, not hashed); o nil is an object the heap no longer
// holds, referenced through a pointer unsafe arithmetic made.
func (h *hasher) content(o *Object) {
	if o == nil { // a dangling reference (TestDanglingReference): named, not followed
		h.byte(0xdd)
		return
	}
	h.byte(byte(o.kind))
	if o.kind == objCells {
		h.u64(h.cells(o))
		return
	}
	for _, c := range o.Cells {
		h.value(c)
	}
	if m := o.Map; m != nil {
		for _, e := range m.ents {
			if !e.dead {
				h.value(e.k)
				h.value(e.v)
			}
		}
	}
	if c := o.Chan; c != nil {
		h.int(int64(c.cap))
		if c.closed {
			h.byte(1)
		}
		for _, v := range c.buf {
			h.value(v)
		}
		for _, w := range c.recvq {
			h.gid(w.g)
		}
		h.byte(0xff)
		for _, w := range c.sendq {
			h.gid(w.g)
			h.value(w.val)
		}
	}
}

// goroutine hashes g: its status, wait, frames and their registers
// (objects they reference are numbered and queued, not hashed).
func (h *hasher) goroutine(g *goroutine) {
	h.gid(g.id)
	h.byte(byte(g.status))
	h.byte(byte(g.wait.kind))
	h.obj(g.wait.ptr.Obj)
	h.int(int64(g.wait.ptr.Off))
	if w := g.wake; w != nil {
		h.byte(1)
		h.int(int64(w.cas))
		h.value(w.val)
	}
	h.int(int64(g.nstate))
	for p := g.panic; p != nil; p = p.link {
		h.byte(2)
		h.value(p.val)
	}
	h.obj(g.wait.ptr2.Obj)
	if g.bubble != 0 { // its synctest bubble (by its root) and the bubble's clock base
		h.byte(3)
		h.gid(g.bubble)
		h.int(g.wallBase)
	}
	for f := g.top; f != nil; f = f.caller {
		if f.fn == nil {
			h.int(int64(f.pc))
			for _, a := range f.contArgs {
				h.value(a)
			}
			continue
		}
		h.str(f.fn.name)
		h.int(int64(f.block.index))
		h.int(int64(f.pc))
		if live, ok := f.fn.liveRegs(f.block.index, int(f.pc)); h.live && ok && !f.unwinding {
			for _, r := range live {
				h.int(int64(r))
				h.value(f.regs[r])
			}
		} else {
			for _, r := range f.regs {
				h.value(r)
			}
		}
		for d := f.defers; d != nil; d = d.next {
			h.value(d.fn)
			for _, a := range d.args {
				h.value(a)
			}
		}
	}
}
