package vm

import "reflect"

// Maps through reflect: MakeMap, MakeMapWithSize, Value.SetMapIndex,
// Value.MapRange, *MapIter's Next, Key, Value, Reset, and Value.SetIterKey
// and SetIterValue.
//
// A *MapIter points to a reflect.MapIter object whose first three cells
// hold the iterated map's Value and whose fourth cell holds the position:
// 1 + the index of the current entry in the map's insertion-ordered entry
// list (0 before the first Next, -1 once exhausted). Iteration follows the
// VM's map order (insertion order), as a range over the map does: deleted
// entries are skipped, entries added during the iteration are produced.

func init() {
	makeMap := func(t *thread, args []Value) (Value, ctl) {
		rt := typeArg(args[0])
		if rt == nil || reflectKind(rt.T) != uint(reflect.Map) {
			return nil, t.stringPanic("reflect.MakeMapWithSize of non-map type")
		}
		m := Map{Obj: t.newObject(&Object{kind: objMap, T: rt, Map: newMapData()})}
		return packValue(t.newRValue(rt, m, 0)), ctlNext
	}
	def("reflect.MakeMap", makeMap)
	def("reflect.MakeMapWithSize", makeMap)
	valueMethod("SetMapIndex", func(t *thread, v rvalue, args []Value) (Value, ctl) {
		if v.kind() != reflect.Map {
			return nil, t.valueError("reflect.Value.SetMapIndex", v.kind())
		}
		if v.flag&rflagRO != 0 {
			return nil, t.stringPanic("reflect: reflect.Value.SetMapIndex using value obtained using unexported field")
		}
		kx, ex := valueArg(args[0]), valueArg(args[1])
		key, ok := t.assignValue(kx, v.rt.Key)
		if !ok {
			return nil, t.stringPanic("reflect.Value.SetMapIndex: value of type " + typeName(kx.rt) + " is not assignable to type " + reflectTypeString(v.rt.Key.T))
		}
		m := t.rload(v).(Map)
		if m.Obj == 0 {
			return nil, t.plainPanic(t.g.top, "assignment to entry in nil map")
		}
		if msg := hashable(key); msg != "" {
			return nil, t.runtimePanic(t.g.top, msg)
		}
		o := t.s.heap.mut(m.Obj, t.s.epoch)
		if ex.rt == nil {
			o.Map.del(key)
			return nil, ctlNext
		}
		elem, ok := t.assignValue(ex, v.rt.Elem)
		if !ok {
			return nil, t.stringPanic("reflect.Value.SetMapIndex: value of type " + typeName(ex.rt) + " is not assignable to type " + reflectTypeString(v.rt.Elem.T))
		}
		if o.shared {
			t.share(key)
			t.share(elem)
		}
		o.Map.set(key, elem)
		return nil, ctlNext
	})
	valueMethod("MapRange", func(t *thread, v rvalue, _ []Value) (Value, ctl) {
		if v.kind() != reflect.Map {
			return nil, t.valueError("reflect.Value.MapRange", v.kind())
		}
		it := t.m.lookupType("reflect", "MapIter")
		if it == nil || it.Size < 4 {
			return nil, t.unsupported(t.g.top, "reflect.MapIter without package reflect's types")
		}
		p := t.alloc(it)
		cells := packValue(v).([]Value)
		for i, c := range cells {
			t.setCell(p, int32(i), c)
		}
		t.setCell(p, 3, 0)
		return p, ctlNext
	})
	iter := func(t *thread, args []Value) (Pointer, rvalue, *mapData, int) {
		p, _ := args[0].(Pointer)
		if p.Obj == 0 {
			return p, rvalue{}, nil, 0
		}
		o := t.s.heap.get(p.Obj)
		v := unpackValue(append([]Value(nil), o.cellRange(int(p.Off), int(p.Off)+3)...))
		pos, _ := o.cell(int(p.Off + 3)).(int)
		if v.rt == nil {
			return p, v, nil, pos
		}
		m := t.rload(v).(Map)
		if m.Obj == 0 {
			return p, v, nil, pos
		}
		return p, v, t.s.heap.get(m.Obj).Map, pos
	}
	def("(*reflect.MapIter).Next", func(t *thread, args []Value) (Value, ctl) {
		p, v, md, pos := iter(t, args)
		if p.Obj == 0 || v.rt == nil {
			return nil, t.stringPanic("MapIter.Next called on an iterator that does not have an associated map Value")
		}
		if pos < 0 {
			return nil, t.stringPanic("MapIter.Next called on exhausted iterator")
		}
		if md != nil {
			for i := pos; i < len(md.ents); i++ {
				if !md.ents[i].dead {
					t.setCell(p, 3, i+1)
					return true, ctlNext
				}
			}
		}
		t.setCell(p, 3, -1)
		return false, ctlNext
	})
	entry := func(name string, elem bool) {
		def("(*reflect.MapIter)."+name, func(t *thread, args []Value) (Value, ctl) {
			_, v, md, pos := iter(t, args)
			if v.rt == nil || md == nil || pos <= 0 || pos > len(md.ents) || md.ents[pos-1].dead {
				return nil, t.stringPanic("MapIter." + name + " called before Next")
			}
			e := md.ents[pos-1]
			if elem {
				return packValue(t.newRValue(v.rt.Elem, e.v, v.ro())), ctlNext
			}
			return packValue(t.newRValue(v.rt.Key, e.k, v.ro())), ctlNext
		})
	}
	entry("Key", false)
	entry("Value", true)
	// Value.SetIterKey and SetIterValue: v.Set of the iterator's key or
	// element (fxamacker/cbor's map encoder)
	setIter := func(name string, elem bool) {
		method := "reflect.Value.SetIter" + name
		valueMethod("SetIter"+name, func(t *thread, v rvalue, args []Value) (Value, ctl) {
			_, m, md, pos := iter(t, args)
			if m.rt == nil || md == nil || pos == 0 {
				return nil, t.stringPanic("reflect: Value.SetIter" + name + " called before Next")
			}
			if pos < 0 || pos > len(md.ents) || md.ents[pos-1].dead {
				return nil, t.stringPanic("reflect: Value.SetIter" + name + " called on exhausted iterator")
			}
			if ok, k := settableValue(t, v, method); !ok {
				return nil, k
			}
			if m.flag&rflagRO != 0 {
				return nil, t.stringPanic("reflect: " + method + " using value obtained using unexported field")
			}
			e, rt := md.ents[pos-1], m.rt.Key
			x := e.k
			if elem {
				x, rt = e.v, m.rt.Elem
			}
			val, ok := t.assignValue(t.newRValue(rt, x, 0), v.rt)
			if !ok {
				return nil, t.stringPanic("reflect.MapIter.Set" + name + ": value of type " + reflectTypeString(rt.T) + " is not assignable to type " + reflectTypeString(v.rt.T))
			}
			writeValue(t, v, val)
			return nil, ctlNext
		})
	}
	setIter("Key", false)
	setIter("Value", true)
	def("(*reflect.MapIter).Reset", nativeReflectMapIterReset)
}

// nativeReflectMapIterReset is (*reflect.MapIter).Reset.
func nativeReflectMapIterReset(t *thread, args []Value) (Value, ctl) {
	p, _ := args[0].(Pointer)
	if p.Obj == 0 {
		return nil, t.runtimePanic(t.g.top, "invalid memory address or nil pointer dereference")
	}
	cells := args[1].([]Value)
	for i, c := range cells {
		t.setCell(p, int32(i), c)
	}
	t.setCell(p, 3, 0)
	return nil, ctlNext
}
