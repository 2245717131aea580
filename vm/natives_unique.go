package vm

import "go/types"

// unique.Make[T] (package unique is stripped: its source is the runtime's
// weak handles over a concurrent hash-trie). Handles of equal values are
// equal: the canonical copies live in a VM map[any]any from the value to
// its *T, held by one object of the initial heap (Machine.uniqueTab), so
// the interning table is part of the state — a snapshot restores it and a
// replay sees the same pointers. Canonical copies are never collected (Go
// may drop one no handle refers to; no program can tell).
// Handle[T].Value is generic and interpreted from its source.

func init() {
	genericNatives["unique.Make"] = func(m *Machine, targs []types.Type) *nativeFunc {
		rt := m.types.get(targs[0])
		return &nativeFunc{name: "unique.Make", fn: func(t *thread, args []Value) (Value, ctl) {
			return t.uniqueMake(rt, args[0])
		}}
	}
}

// allocUniqueTab makes the object holding unique's interning table.
func (m *Machine) allocUniqueTab() {
	m.uniqueTab = m.base.alloc(&Object{T: m.types.get(types.Universe.Lookup("any").Type()), Cells: []Value{Iface{}}, shared: true}, 0)
	m.hashRoots = append(m.hashRoots, m.uniqueTab)
	m.allGlobals = append(m.allGlobals, m.uniqueTab)
}

// uniqueMake is unique.Make[T](v) for T = rt: the handle of v's canonical
// copy.
func (t *thread) uniqueMake(rt *RType, v Value) (Value, ctl) {
	if t.m.uniqueTab == 0 {
		return nil, t.unsupported(t.g.top, "unique.Make without package unique's table")
	}
	tab := Pointer{Obj: t.m.uniqueTab}
	mv, _ := t.cell(tab, 0).(Map)
	if mv.Obj == 0 {
		any := types.Universe.Lookup("any").Type()
		mt := t.m.types.get(types.NewMap(any, any))
		mv = Map{Obj: t.newObject(&Object{kind: objMap, T: mt, Map: newMapData()})}
		t.share(mv)
		t.setCell(tab, 0, mv)
	}
	key := Iface{T: rt, V: v}
	if p, ok := t.s.heap.get(mv.Obj).Map.lookup(key); ok {
		return []Value{p.(Iface).V}, ctlNext
	}
	p := t.alloc(rt)
	t.s.writeCells(p, rt, v)
	t.share(p)
	t.share(key)
	t.s.heap.mut(mv.Obj, t.s.epoch).Map.set(key, Iface{T: t.m.types.get(types.NewPointer(rt.T)), V: p})
	return []Value{p}, ctlNext
}
