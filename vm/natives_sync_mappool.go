package vm

import (
	"go/types"
)

// Natives of sync.Map, sync.Pool, RWMutex.RLocker and sync.OnceFunc (see
// natives_std.go for the list of standard-library models).

// --- sync.Map: cell 0 holds a VM map[any]any; sync.Pool: cell 0 holds a []any ---

// syncMap returns the map object of the sync.Map at args[0] (0 if it has
// none and create is false).
func (t *thread) syncMap(v Value, op string, create bool) (Pointer, ObjID, ctl) {
	p := ptrArg(v)
	if p.Obj == 0 {
		return p, 0, t.runtimePanic(t.g.top, "invalid memory address or nil pointer dereference")
	}
	t.s.last.Op = "sync.Map." + op
	mv, _ := t.cell(p, 0).(Map)
	if mv.Obj == 0 && create {
		rt := t.m.types.get(types.NewMap(types.Universe.Lookup("any").Type(), types.Universe.Lookup("any").Type()))
		mv = Map{Obj: t.newObject(&Object{kind: objMap, T: rt, Map: newMapData()})}
		if t.s.heap.get(p.Obj).shared {
			t.share(mv)
		}
		t.setCell(p, 0, mv)
	}
	return p, mv.Obj, ctlNext
}

// hashableKey panics (as a map of interface keys does) for an unhashable key.
func (t *thread) hashableKey(k Value) ctl {
	if iv, _ := k.(Iface); iv.T != nil && !types.Comparable(iv.T.T) {
		return t.runtimePanic(t.g.top, "hash of unhashable type "+iv.T.String())
	}
	return ctlNext
}

func init() {
	const sm = "(*sync.Map)."
	// mapOp wraps a sync.Map operation: nil check, key check, race hooks.
	mapOp := func(op string, write bool, f func(t *thread, m ObjID, args []Value) Value) {
		defVisible(sm+op, func(t *thread, args []Value) (Value, ctl) {
			p, id, k := t.syncMap(args[0], op, write)
			if k != ctlNext {
				return nil, k
			}
			if len(args) > 1 {
				if k := t.hashableKey(args[1]); k != ctlNext {
					return nil, k
				}
			}
			t.raceAcquire(p)
			res := f(t, id, args[1:])
			if write {
				t.raceRelease(p)
			}
			return res, ctlNext
		})
	}
	lookup := func(t *thread, id ObjID, k Value) (Value, bool) {
		if id == 0 {
			return Iface{}, false
		}
		v, ok := t.s.heap.get(id).Map.lookup(k)
		if !ok {
			return Iface{}, false
		}
		return v, true
	}
	set := func(t *thread, id ObjID, k, v Value) {
		o := t.s.heap.mut(id, t.s.epoch)
		if o.shared {
			t.share(k)
			t.share(v)
		}
		o.Map.set(k, v)
	}
	del := func(t *thread, id ObjID, k Value) {
		if id != 0 {
			t.s.heap.mut(id, t.s.epoch).Map.del(k)
		}
	}
	mapOp("Load", false, func(t *thread, id ObjID, a []Value) Value {
		v, ok := lookup(t, id, a[0])
		return Tuple{v, ok}
	})
	mapOp("Store", true, func(t *thread, id ObjID, a []Value) Value {
		set(t, id, a[0], a[1])
		return nil
	})
	mapOp("LoadOrStore", true, func(t *thread, id ObjID, a []Value) Value {
		if v, ok := lookup(t, id, a[0]); ok {
			return Tuple{v, true}
		}
		set(t, id, a[0], a[1])
		return Tuple{a[1], false}
	})
	mapOp("LoadAndDelete", true, func(t *thread, id ObjID, a []Value) Value {
		v, ok := lookup(t, id, a[0])
		del(t, id, a[0])
		return Tuple{v, ok}
	})
	mapOp("Delete", true, func(t *thread, id ObjID, a []Value) Value {
		del(t, id, a[0])
		return nil
	})
	mapOp("Swap", true, func(t *thread, id ObjID, a []Value) Value {
		v, ok := lookup(t, id, a[0])
		set(t, id, a[0], a[1])
		return Tuple{v, ok}
	})
	mapOp("CompareAndSwap", true, func(t *thread, id ObjID, a []Value) Value {
		v, ok := lookup(t, id, a[0])
		if !ok || !equal(v, a[1]) {
			return false
		}
		set(t, id, a[0], a[2])
		return true
	})
	mapOp("CompareAndDelete", true, func(t *thread, id ObjID, a []Value) Value {
		v, ok := lookup(t, id, a[0])
		if !ok || !equal(v, a[1]) {
			return false
		}
		del(t, id, a[0])
		return true
	})
	defVisible(sm+"Clear", nativeSyncMapClear)
	// Range calls f on a snapshot of the entries, one call after the other
	// above a continuation frame whose pc counts the calls made.
	defVisible(sm+"Range", nativeSyncMapRange)

	// Pool: a LIFO stack of the values put; Get calls New when it is empty.
	// Called by the standard library (fmt's printers, log's buffers), Put
	// drops the value and Get always calls New (poolLocal).
	poolNew := func(t *thread) int32 { return t.m.fieldOff("sync", "Pool", 5) }
	put := defVisible("(*sync.Pool).Put", func(t *thread, args []Value) (Value, ctl) {
		p := ptrArg(args[0])
		if p.Obj == 0 {
			return nil, t.runtimePanic(t.g.top, "invalid memory address or nil pointer dereference")
		}
		if t.callerInStd() {
			return nil, ctlNext // dropped, as Go's Pool may drop any value
		}
		t.s.last.Op = "sync.Pool.Put"
		if iv, _ := args[1].(Iface); iv.T == nil {
			return nil, ctlNext
		}
		sl, _ := t.cell(p, 0).(Slice)
		anyT := t.m.types.get(types.Universe.Lookup("any").Type())
		sl = t.appendSlice(sl, anyT, []Value{args[1]})
		if t.s.heap.get(p.Obj).shared {
			t.share(sl)
		}
		t.raceRelease(p)
		t.setCell(p, 0, sl)
		return nil, ctlNext
	})
	get := defVisible("(*sync.Pool).Get", func(t *thread, args []Value) (Value, ctl) {
		p := ptrArg(args[0])
		if p.Obj == 0 {
			return nil, t.runtimePanic(t.g.top, "invalid memory address or nil pointer dereference")
		}
		std := t.callerInStd()
		if !std {
			t.s.last.Op = "sync.Pool.Get"
			t.raceAcquire(p)
		}
		if sl, _ := t.cell(p, 0).(Slice); sl.Len > 0 && !std {
			anyT := t.m.types.get(types.Universe.Lookup("any").Type())
			v := t.s.sliceElem(sl, anyT, sl.Len-1)
			sl.Len--
			t.setCell(p, 0, sl)
			return v, ctlNext
		}
		newFn, _ := t.cell(p, poolNew(t)).(*Closure)
		if newFn == nil {
			return Iface{}, ctlNext
		}
		v, ok := t.syncCall(newFn, nil)
		if !ok {
			if t.s.err != nil {
				return nil, ctlStop
			}
			return nil, t.unsupported(t.g.top, "sync.Pool.New function that blocks or panics")
		}
		return v, ctlNext
	})
	put.local = poolLocal
	get.local = poolLocal
}

// poolLocal tells whether a sync.Pool operation is local to the calling
// goroutine: called by the standard library, whose pools (fmt's printers,
// log's and encoding/json's buffers) are caches the program cannot
// observe. Go's Pool may drop any value put at any time (the race
// detector's build drops some on purpose), so a Put that drops the value
// and a Get that calls New are one of Go's own executions: no bug is
// added, and none is hidden that Go's semantics guarantee (Put/Get give no
// happens-before edge unless Get returns the same value). Dropping keeps
// the printers' leftover buffers out of the state, so states that differ
// only by what was printed last do not multiply, and the operations are
// not scheduling points. The program's own pools keep their values
// (a LIFO stack), with Put→Get happens-before.
func poolLocal(t *thread, _ []Value) bool { return t.callerInStd() }

// callerInStd reports whether the innermost Go function on the running
// goroutine's stack (the caller of a native) belongs to the standard
// library.
func (t *thread) callerInStd() bool {
	fn := t.callerFunc()
	if fn == nil {
		return false
	}
	if o := fn.Origin(); o != nil {
		fn = o
	}
	return fn.Pkg != nil && t.m.prog.IsStdPackage(fn.Pkg)
}

// nativeSyncMapClear is (*sync.Map).Clear.
func nativeSyncMapClear(t *thread, args []Value) (Value, ctl) {
	p, id, k := t.syncMap(args[0], "Clear", false)
	if k != ctlNext {
		return nil, k
	}
	if id != 0 {
		t.s.heap.mut(id, t.s.epoch).Map.clear()
	}
	t.raceRelease(p)
	return nil, ctlNext
}

// nativeSyncMapRange is (*sync.Map).Range.
func nativeSyncMapRange(t *thread, args []Value) (Value, ctl) {
	p, id, k := t.syncMap(args[0], "Range", false)
	if k != ctlNext {
		return nil, k
	}
	t.raceAcquire(p)
	var ents []mapEntry
	if id != 0 {
		for _, e := range t.s.heap.get(id).Map.ents {
			if !e.dead {
				ents = append(ents, e)
			}
		}
	}
	if len(ents) == 0 {
		return nil, ctlNext
	}
	f := args[1]
	return nil, t.callCont(t.g.top, f, []Value{ents[0].k, ents[0].v}, func(t *thread, res Value) ctl {
		cf := t.g.top
		cf.pc++
		if b, _ := res.(bool); !b || int(cf.pc) >= len(ents) {
			return t.ret(cf, nil)
		}
		return t.callAbove(cf, f, []Value{ents[cf.pc].k, ents[cf.pc].v})
	})
}

// (*sync.RWMutex).RLocker returns the mutex as a Locker whose Lock and
// Unlock are RLock and RUnlock (the RWMutex natives, looked up at call time).
func init() {
	def("(*sync.RWMutex).RLocker", func(t *thread, args []Value) (Value, ctl) {
		rt := t.m.lookupType("sync", "rlocker")
		if rt == nil {
			return nil, t.unsupported(t.g.top, "sync.RWMutex.RLocker")
		}
		return Iface{T: t.m.types.get(types.NewPointer(rt.T)), V: args[0]}, ctlNext
	})
	forward := func(name, to string) {
		nf := defVisible(name, func(t *thread, args []Value) (Value, ctl) {
			return nativeTable[to].fn(t, args)
		})
		nf.guard = func(t *thread, args []Value) (bool, waitInfo) {
			if g := nativeTable[to].guard; g != nil {
				return g(t, args)
			}
			return true, waitInfo{}
		}
	}
	forward("(*sync.rlocker).Lock", "(*sync.RWMutex).RLock")
	forward("(*sync.rlocker).Unlock", "(*sync.RWMutex).RUnlock")
}

// sync.OnceFunc (not generic, so not interpreted) returns a function that
// runs f through a sync.Once of its own: the function value is a native
// closure bound to (the *Once, f). Unlike Go, a panic of f is not raised
// again by later calls.
func init() {
	onceFn := &nativeFunc{name: "sync.OnceFunc.func1", visible: true}
	onceArgs := func(args []Value) []Value {
		tp, _ := args[0].(Tuple)
		return []Value{tp[0], tp[1]}
	}
	onceFn.fn = func(t *thread, args []Value) (Value, ctl) {
		return nativeTable["(*sync.Once).Do"].fn(t, onceArgs(args))
	}
	onceFn.guard = func(t *thread, args []Value) (bool, waitInfo) {
		if g := nativeTable["(*sync.Once).Do"].guard; g != nil {
			return g(t, onceArgs(args))
		}
		return true, waitInfo{}
	}
	def("sync.OnceFunc", func(t *thread, args []Value) (Value, ctl) {
		rt := t.m.lookupType("sync", "Once")
		if rt == nil {
			return nil, t.unsupported(t.g.top, "sync.OnceFunc")
		}
		return &Closure{Native: onceFn, Bound: Tuple{t.alloc(rt), args[0]}}, ctlNext
	})
}
