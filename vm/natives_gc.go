package vm

import (
	"go/types"
)

// Finalizers, cleanups and weak pointers (runtime.SetFinalizer,
// runtime.AddCleanup, package weak), as Go's collector runs and clears
// them when runtime.GC is called.
//
// The registrations live in one object of the machine (finTab, a root of
// the state hash like unique's table): cell 0 is a map from a key (the
// object's pointer for a finalizer, a number for a cleanup) to the record
// [object, function, argument]; cell 1 counts the cleanups; cell 2 maps
// the target of each weak pointer to its handle, an object whose one cell
// is a weakRef (not followed by the collector's marking). runtime.GC
// marks what the program can still reach — the globals, every goroutine's
// live registers (liveness.go: a variable the code no longer reads does
// not keep its object alive, as with gc's stack maps), deferred calls,
// pending timers, a fuzz target's seeds, and the registered functions and cleanup arguments
// themselves (a finalizer that refers to its object keeps it alive) — and
// clears the weak pointers to unreachable objects (their Value is nil from
// then on) and queues the records whose object is unreachable, in
// registration order,
// on one new goroutine that calls them one after the other, as Go's
// finalizer goroutine does. SetFinalizer and AddCleanup are synchronized
// before the calls they register (the memory model): they release the
// table's clock, which the finalizer goroutine acquires.
//
// Only an explicit runtime.GC collects: Go's collector may also run at any
// allocation, which the VM does not explore (a finalizer that never runs
// is an execution Go allows too). runtime.GC is a scheduling point while
// registrations are pending.

func init() {
	def("runtime.SetFinalizer", nativeRuntimeSetFinalizer)
	gc := defVisible("runtime.GC", nativeRuntimeGC)
	gc.local = func(t *thread, _ []Value) bool { return t.finalizersPending() == 0 && t.weakPending() == 0 }
	genericNatives["runtime.AddCleanup"] = func(m *Machine, targs []types.Type) *nativeFunc {
		return &nativeFunc{name: "runtime.AddCleanup", fn: nativeRuntimeAddCleanup}
	}
	def("(runtime.Cleanup).Stop", nativeRuntimeCleanupStop)
	def("weak.runtime_registerWeakPointer", nativeWeakRegister)
	def("weak.runtime_makeStrongFromWeak", nativeWeakStrong)
}

// weakRef is the target a weak pointer's handle holds: the state hash
// follows it, the collector's marking does not (hasher.gc).
type weakRef struct{ p Pointer }

func (w weakRef) hashInto(h *hasher) {
	if h.gc {
		return
	}
	h.obj(w.p.Obj)
	h.int(int64(w.p.Off))
}

// nativeWeakRegister is weak.Make's runtime_registerWeakPointer: the
// handle of p, the same for every weak pointer made from p.
func nativeWeakRegister(t *thread, args []Value) (Value, ctl) {
	p, ok := args[0].(Pointer)
	if t.m.finTab == 0 || !ok || p.Obj == 0 {
		return nil, t.unsupported(t.g.top, "weak.Make of memory that is not a Go variable")
	}
	mv := t.tabMap(weakCell, true)
	if h, ok := t.s.heap.get(mv.Obj).Map.lookup(p); ok {
		return h, ctlNext
	}
	h := Pointer{Obj: t.newObject(&Object{T: t.m.types.get(types.Typ[types.UnsafePointer]), Cells: []Value{weakRef{p}}, shared: true})}
	t.s.heap.mut(mv.Obj, t.s.epoch).Map.set(p, h)
	return h, ctlNext
}

// nativeWeakStrong is weak.Pointer.Value's runtime_makeStrongFromWeak:
// the target, or nil once a collection found it unreachable.
func nativeWeakStrong(t *thread, args []Value) (Value, ctl) {
	h, ok := args[0].(Pointer)
	if !ok || h.Obj == 0 {
		return Pointer{}, ctlNext
	}
	w, _ := t.s.heap.get(h.Obj).cell(0).(weakRef)
	return w.p, ctlNext
}

// clearWeak clears the handles of the weak pointers to objects not in
// reached.
func (t *thread) clearWeak(reached map[ObjID]bool) {
	mv := t.tabMap(weakCell, false)
	if mv.Obj == 0 {
		return
	}
	var dead []Value
	for _, e := range t.s.heap.get(mv.Obj).Map.ents {
		if !e.dead && !reached[e.k.(Pointer).Obj] {
			dead = append(dead, e.k)
			t.s.heap.mut(e.v.(Pointer).Obj, t.s.epoch).setCell(0, weakRef{})
		}
	}
	if len(dead) > 0 {
		m := t.s.heap.mut(mv.Obj, t.s.epoch).Map
		for _, k := range dead {
			m.del(k)
		}
	}
}

// weakPending is the number of weak pointers' targets not yet cleared.
func (t *thread) weakPending() int {
	if mv := t.tabMap(weakCell, false); mv.Obj != 0 {
		return t.s.heap.get(mv.Obj).Map.live
	}
	return 0
}

// allocFinTab makes the object holding the registrations.
func (m *Machine) allocFinTab() {
	m.finTab = m.base.alloc(&Object{T: m.types.get(types.Universe.Lookup("any").Type()), Cells: []Value{Iface{}, Iface{}, Iface{}, Iface{}}, shared: true}, 0)
	m.hashRoots = append(m.hashRoots, m.finTab)
	m.allGlobals = append(m.allGlobals, m.finTab)
}

// The cells of finTab that hold maps: the finalizers and cleanups, the
// weak pointers' handles, and the channels os/signal.Notify registered
// (natives_signal.go).
const (
	finCell  = 0
	weakCell = 2
	sigCell  = 3
)

// tabMap is the map in cell c of finTab (made on first use when mk; the
// zero Map when not made).
func (t *thread) tabMap(c int32, mk bool) Map {
	tab := Pointer{Obj: t.m.finTab}
	mv, _ := t.cell(tab, c).(Map)
	if mv.Obj == 0 && mk {
		any := types.Universe.Lookup("any").Type()
		mv = Map{Obj: t.newObject(&Object{kind: objMap, T: t.m.types.get(types.NewMap(any, any)), Map: newMapData(), shared: true})}
		t.setCell(tab, c, mv)
	}
	return mv
}

// finMap is the registrations' map (made on first use when mk; nil when
// not made).
func (t *thread) finMap(mk bool) *mapData {
	mv := t.tabMap(finCell, mk)
	if mv.Obj == 0 {
		return nil
	}
	return t.s.heap.get(mv.Obj).Map
}

// finMut is the registrations' map, writable in this state.
func (t *thread) finMut() *mapData {
	return t.s.heap.mut(t.tabMap(finCell, true).Obj, t.s.epoch).Map
}

// finalizersPending is the number of registrations.
func (t *thread) finalizersPending() int {
	if t.m.finTab == 0 {
		return 0
	}
	if m := t.finMap(false); m != nil {
		return m.live
	}
	return 0
}

// nativeRuntimeSetFinalizer is runtime.SetFinalizer(obj, finalizer): a
// nil finalizer clears the object's.
func nativeRuntimeSetFinalizer(t *thread, args []Value) (Value, ctl) {
	obj, _ := args[0].(Iface)
	p, ok := obj.V.(Pointer)
	if t.m.finTab == 0 || !ok || p.Obj == 0 {
		return nil, ctlNext // (Go throws for a non-pointer; nothing to run)
	}
	key := Pointer{Obj: p.Obj}
	fin, _ := args[1].(Iface)
	if fin.T == nil || fin.V == nil {
		t.finMut().del(key)
		return nil, ctlNext
	}
	arg := obj.V
	if sig, ok := fin.T.T.Underlying().(*types.Signature); ok && sig.Params().Len() == 1 && types.IsInterface(sig.Params().At(0).Type()) {
		arg = obj // func(any): the object as an interface
	}
	t.raceRelease(Pointer{Obj: t.m.finTab})
	t.finMut().set(key, []Value{key, fin.V, arg})
	return nil, ctlNext
}

// nativeRuntimeAddCleanup is runtime.AddCleanup(ptr, cleanup, arg): a
// runtime.Cleanup naming the registration.
func nativeRuntimeAddCleanup(t *thread, args []Value) (Value, ctl) {
	p, _ := args[0].(Pointer)
	if t.m.finTab == 0 || p.Obj == 0 {
		return []Value{uint64(0), uintptr(0)}, ctlNext
	}
	tab := Pointer{Obj: t.m.finTab}
	n, _ := t.cell(tab, 1).(uint64)
	n++
	t.setCell(tab, 1, n)
	t.raceRelease(tab)
	t.finMut().set(n, []Value{Pointer{Obj: p.Obj}, args[1], args[2]})
	return []Value{n, uintptr(0)}, ctlNext
}

// nativeRuntimeCleanupStop is (runtime.Cleanup).Stop: the cleanup will
// not run.
func nativeRuntimeCleanupStop(t *thread, args []Value) (Value, ctl) {
	c, _ := args[0].([]Value)
	if t.m.finTab == 0 || len(c) == 0 {
		return nil, ctlNext
	}
	if n, _ := c[0].(uint64); n != 0 && t.finalizersPending() > 0 {
		t.finMut().del(n)
	}
	return nil, ctlNext
}

// nativeRuntimeGC is runtime.GC: the forced collection is counted
// (natives_runtime_stats.go) and the finalizers and cleanups of the
// objects nothing reaches are queued on a new goroutine.
func nativeRuntimeGC(t *thread, args []Value) (Value, ctl) {
	t.s.numGC++
	t.s.forcedGCAt = wallTime(t.g.wallBase, t.s.clock)
	if t.m.finTab == 0 || t.finalizersPending() == 0 && t.weakPending() == 0 {
		return nil, ctlNext
	}
	t.s.last.Op = "runtime.GC"
	t.touch(AllObjects, true)
	reached := t.s.gcReached(t.m.finTab)
	t.clearWeak(reached)
	fm := t.finMap(false)
	if fm == nil {
		return nil, ctlNext
	}
	var due []Value // records, in registration order
	var keys []Value
	for _, e := range fm.ents {
		if e.dead {
			continue
		}
		rec := e.v.([]Value)
		if !reached[rec[0].(Pointer).Obj] {
			due = append(due, rec)
			keys = append(keys, e.k)
		}
	}
	if len(due) == 0 {
		return nil, ctlNext
	}
	m := t.finMut()
	for _, k := range keys {
		m.del(k)
	}
	run := &nativeFunc{name: "runtime.runfinq", fn: func(t *thread, _ []Value) (Value, ctl) {
		t.raceAcquire(Pointer{Obj: t.m.finTab})
		return nil, t.runFinalizers(due)
	}}
	// Env makes the records visible to the state hash and the leak check
	t.spawn(t.g.top, &Closure{Native: run, Env: due}, nil, "runtime.runfinq")
	return nil, ctlNext
}

// runFinalizers calls the records one after the other above one
// continuation frame, whose pc counts the calls made (a frame per call,
// each above the last, ran the last record again whenever it returned:
// one collection that found two objects unreachable ran the second
// finalizer forever), then returns from the finalizer goroutine's native
// frame.
func (t *thread) runFinalizers(records []Value) ctl {
	first := records[0].([]Value)
	return t.callCont(t.g.top, first[1], []Value{first[2]}, func(t *thread, _ Value) ctl {
		cf := t.g.top
		cf.pc++
		if int(cf.pc) >= len(records) {
			return t.ret(cf, nil)
		}
		rec := records[cf.pc].([]Value)
		return t.callAbove(cf, rec[1], []Value{rec[2]})
	})
}

// markRegistered marks the functions and the cleanups' arguments the
// registrations' table tab holds (gcReached).
func (s *State) markRegistered(h *hasher, tab ObjID) {
	mv, _ := s.heap.get(tab).cell(finCell).(Map)
	if mv.Obj == 0 {
		return
	}
	for _, e := range s.heap.get(mv.Obj).Map.ents {
		if !e.dead {
			rec := e.v.([]Value)
			h.value(rec[1])
			if _, cleanup := e.k.(uint64); cleanup {
				h.value(rec[2]) // (a finalizer's argument is its object)
			}
		}
	}
}

// gcReached marks the objects the program can reach, as the collector
// does (see the top of this file); skip, the registrations' table (0:
// none), is not a root, but the functions and arguments it holds are.
func (s *State) gcReached(skip ObjID) map[ObjID]bool {
	h := &hasher{h: fnvOffset, s: s, ids: map[ObjID]int{}, gc: true}
	for _, id := range s.m.allGlobals {
		if id != skip {
			h.obj(id)
		}
	}
	if skip != 0 {
		s.markRegistered(h, skip)
		if sv, _ := s.heap.get(skip).cell(sigCell).(Map); sv.Obj != 0 {
			h.obj(sv.Obj) // (os/signal keeps the channels it sends to)
		}
	}
	for g := range s.gs.all() {
		if g.status != gDead {
			h.stackRefs(g, true)
		}
	}
	for _, tm := range s.timers {
		h.obj(tm.ch.Obj)
		h.obj(tm.id)
		if tm.fn != nil {
			h.value(tm.fn)
		}
	}
	if ts := s.test; ts != nil && ts.fuzz != nil { // a fuzz target's seeds ([]byte arguments)
		for _, seed := range ts.fuzz.seeds {
			for _, v := range seed {
				h.value(v)
			}
		}
	}
	h.drain()
	out := make(map[ObjID]bool, len(h.queue))
	for _, id := range h.queue {
		out[id] = true
	}
	return out
}
