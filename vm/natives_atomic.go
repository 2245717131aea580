package vm

import (
	"go/types"
)

// Natives of sync/atomic (see natives_std.go for the list of standard-library
// models).

// --- sync/atomic ---

// withKind converts u to the Go type of the VM value like.
func withKind(like Value, u uint64) Value {
	switch like.(type) {
	case int32:
		return int32(u)
	case int64:
		return int64(u)
	case uint32:
		return uint32(u)
	case uint64:
		return u
	case uintptr:
		return uintptr(u)
	case int:
		return int(u)
	case uint:
		return uint(u)
	}
	return u
}

// atomicCell returns the cell an atomic operates on, or a nil-dereference panic.
func (t *thread) atomicCell(v Value, op string) (Pointer, ctl) {
	p := ptrArg(v)
	if p.Obj == 0 {
		return p, t.runtimePanic(t.g.top, "invalid memory address or nil pointer dereference")
	}
	t.s.last.Op = "atomic." + op
	return p, ctlNext
}

// atomicLoad / atomicStore / atomicRMW are the three shapes of atomic
// operations; each is a scheduling point and a synchronization of the
// object holding the cell.
func (t *thread) atomicLoad(p Pointer) Value {
	v := t.cell(p, 0)
	t.raceAtomic(t.g.top, p, false)
	t.raceAcquire(p)
	return v
}

func (t *thread) atomicStore(p Pointer, v Value) {
	t.raceAtomic(t.g.top, p, true)
	t.raceRelease(p)
	if t.s.heap.get(p.Obj).shared {
		t.share(v)
	}
	t.setCell(p, 0, v)
}

func (t *thread) atomicRMW(p Pointer, f func(old Value) Value) Value {
	old := t.cell(p, 0)
	t.raceAtomic(t.g.top, p, true)
	t.raceAcquire(p)
	nv := f(old)
	t.raceRelease(p)
	if t.s.heap.get(p.Obj).shared {
		t.share(nv)
	}
	t.setCell(p, 0, nv)
	return old
}

func b32(b bool) uint32 {
	if b {
		return 1
	}
	return 0
}

func init() {
	type atomicOps struct {
		load    func(t *thread, p Pointer) Value
		store   func(t *thread, p Pointer, v Value)
		swap    func(t *thread, p Pointer, v Value) Value
		cas     func(t *thread, p Pointer, old, nv Value) bool
		add     func(t *thread, p Pointer, d Value) Value
		and, or func(t *thread, p Pointer, m Value) Value
	}
	plain := atomicOps{
		load:  func(t *thread, p Pointer) Value { return t.atomicLoad(p) },
		store: func(t *thread, p Pointer, v Value) { t.atomicStore(p, v) },
		swap: func(t *thread, p Pointer, v Value) Value {
			return t.atomicRMW(p, func(Value) Value { return v })
		},
		cas: func(t *thread, p Pointer, old, nv Value) bool {
			if !equal(t.cell(p, 0), old) {
				t.raceAtomic(t.g.top, p, false)
				t.raceAcquire(p)
				return false
			}
			t.atomicRMW(p, func(Value) Value { return nv })
			return true
		},
		add: func(t *thread, p Pointer, d Value) Value {
			old := t.atomicRMW(p, func(old Value) Value { return withKind(old, toUint64(old)+toUint64(d)) })
			return withKind(old, toUint64(old)+toUint64(d))
		},
		and: func(t *thread, p Pointer, m Value) Value {
			return t.atomicRMW(p, func(old Value) Value { return withKind(old, toUint64(old)&toUint64(m)) })
		},
		or: func(t *thread, p Pointer, m Value) Value {
			return t.atomicRMW(p, func(old Value) Value { return withKind(old, toUint64(old)|toUint64(m)) })
		},
	}
	reg := func(name, op string, fn func(t *thread, p Pointer, args []Value) Value) {
		defVisible(name, func(t *thread, args []Value) (Value, ctl) {
			p, k := t.atomicCell(args[0], op)
			if k != ctlNext {
				return nil, k
			}
			return fn(t, p, args[1:]), ctlNext
		})
	}
	regOps := func(fnName, method string, o atomicOps) {
		// fnName(addr, ...) for the functions, method for (*T).M
		names := func(op string) []string {
			var ns []string
			if fnName != "" {
				ns = append(ns, "sync/atomic."+op+fnName)
			}
			if method != "" {
				ns = append(ns, "(*sync/atomic."+method+")."+op)
			}
			return ns
		}
		for _, n := range names("Load") {
			reg(n, "Load", func(t *thread, p Pointer, a []Value) Value { return o.load(t, p) })
		}
		for _, n := range names("Store") {
			reg(n, "Store", func(t *thread, p Pointer, a []Value) Value { o.store(t, p, a[0]); return nil })
		}
		for _, n := range names("Swap") {
			reg(n, "Swap", func(t *thread, p Pointer, a []Value) Value { return o.swap(t, p, a[0]) })
		}
		for _, n := range names("CompareAndSwap") {
			reg(n, "CompareAndSwap", func(t *thread, p Pointer, a []Value) Value { return o.cas(t, p, a[0], a[1]) })
		}
		if o.add != nil {
			for _, n := range names("Add") {
				reg(n, "Add", func(t *thread, p Pointer, a []Value) Value { return o.add(t, p, a[0]) })
			}
			for _, n := range names("And") {
				reg(n, "And", func(t *thread, p Pointer, a []Value) Value { return o.and(t, p, a[0]) })
			}
			for _, n := range names("Or") {
				reg(n, "Or", func(t *thread, p Pointer, a []Value) Value { return o.or(t, p, a[0]) })
			}
		}
	}
	for _, k := range []string{"Int32", "Int64", "Uint32", "Uint64", "Uintptr"} {
		regOps(k, k, plain)
	}
	ptrOps := plain
	ptrOps.add = nil
	regOps("Pointer", "", ptrOps)
	// Bool: the cell is a uint32.
	regOps("", "Bool", atomicOps{
		load:  func(t *thread, p Pointer) Value { return toUint64(t.atomicLoad(p)) != 0 },
		store: func(t *thread, p Pointer, v Value) { t.atomicStore(p, b32(v.(bool))) },
		swap: func(t *thread, p Pointer, v Value) Value {
			return toUint64(t.atomicRMW(p, func(Value) Value { return b32(v.(bool)) })) != 0
		},
		cas: func(t *thread, p Pointer, old, nv Value) bool {
			return plain.cas(t, p, b32(old.(bool)), b32(nv.(bool)))
		},
	})
	// Value: the cell is an interface; stores must keep one dynamic type.
	valueCheck := func(t *thread, p Pointer, v Value, what string) ctl {
		iv, _ := v.(Iface)
		if iv.T == nil {
			return t.stringPanic("sync/atomic: " + what + " of nil value into Value")
		}
		if cur, _ := t.cell(p, 0).(Iface); cur.T != nil && cur.T != iv.T {
			return t.stringPanic("sync/atomic: " + what + " of inconsistently typed value into Value")
		}
		return ctlNext
	}
	const av = "(*sync/atomic.Value)."
	reg(av+"Load", "Load", func(t *thread, p Pointer, a []Value) Value { return t.atomicLoad(p) })
	defVisible(av+"Store", func(t *thread, args []Value) (Value, ctl) {
		p, k := t.atomicCell(args[0], "Store")
		if k == ctlNext {
			k = valueCheck(t, p, args[1], "store")
		}
		if k != ctlNext {
			return nil, k
		}
		t.atomicStore(p, args[1])
		return nil, ctlNext
	})
	defVisible(av+"Swap", func(t *thread, args []Value) (Value, ctl) {
		p, k := t.atomicCell(args[0], "Swap")
		if k == ctlNext {
			k = valueCheck(t, p, args[1], "swap")
		}
		if k != ctlNext {
			return nil, k
		}
		return t.atomicRMW(p, func(Value) Value { return args[1] }), ctlNext
	})
	defVisible(av+"CompareAndSwap", func(t *thread, args []Value) (Value, ctl) {
		p, k := t.atomicCell(args[0], "CompareAndSwap")
		if k == ctlNext {
			k = valueCheck(t, p, args[2], "compare and swap")
		}
		if k != ctlNext {
			return nil, k
		}
		old, _ := args[1].(Iface)
		if old.T != nil && !types.Comparable(old.T.T) {
			return nil, t.runtimePanic(t.g.top, "comparing uncomparable type "+old.T.String())
		}
		return plain.cas(t, p, args[1], args[2]), ctlNext
	})
	def("(*sync/atomic.noCopy).Lock", nativeSyncAtomicNoCopyLock)
	def("(*sync/atomic.noCopy).Unlock", nativeSyncAtomicNoCopyUnlock)
}

// nativeSyncAtomicNoCopyLock is (*sync/atomic.noCopy).Lock.
func nativeSyncAtomicNoCopyLock(t *thread, args []Value) (Value, ctl) { return nil, ctlNext }

// nativeSyncAtomicNoCopyUnlock is (*sync/atomic.noCopy).Unlock.
func nativeSyncAtomicNoCopyUnlock(t *thread, args []Value) (Value, ctl) { return nil, ctlNext }
