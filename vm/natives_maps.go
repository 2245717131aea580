package vm

// Natives of package maps: the function the runtime provides to it by
// linkname (the rest of the package runs from its source).

func init() {
	def("maps.clone", mapsClone)
}

// mapsClone is maps.clone(m any) any: a new map of m's type holding m's
// entries in m's iteration order (a nil map stays nil). It reads m as a
// range over it would, for the race detector.
func mapsClone(t *thread, args []Value) (Value, ctl) {
	iv, _ := args[0].(Iface)
	m, ok := iv.V.(Map)
	if !ok || m.Obj == 0 {
		return iv, ctlNext
	}
	t.raceMap(t.g.top, m.Obj, false)
	src := t.s.heap.get(m.Obj)
	md := newMapData()
	for _, e := range src.Map.ents {
		if !e.dead {
			md.set(e.k, e.v)
		}
	}
	return Iface{T: iv.T, V: Map{Obj: t.newObject(&Object{kind: objMap, T: src.T, Map: md})}}, ctlNext
}
