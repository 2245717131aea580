package vm

import (
	"go/types"
	"reflect"
)

// Struct fields through reflect: Type.Field, Type.FieldByName,
// Type.FieldByIndex, Value.Field, Value.FieldByName, Value.FieldByIndex,
// and the navigation of a Value into its elements (Elem, Index, MapKeys,
// MapIndex, Addr, Convert, CanConvert).
//
// FieldByName follows reflect's rule: the shallowest field of that name,
// looking through embedded structs and pointers to structs breadth first;
// two at the same depth hide each other (not found). A StructField's
// Offset is the gc compiler's byte offset on amd64 within the struct that
// declares the field, its Index the path from the outer struct.

// fieldByName returns the index path of the field name in struct type st.
func fieldByName(st types.Type, name string) ([]int, bool) {
	type level struct {
		t     types.Type
		index []int
	}
	current := []level{{st, nil}}
	visited := map[string]bool{}
	for len(current) > 0 {
		var next []level
		var found []int
		count := 0
		for _, l := range current {
			s, ok := l.t.Underlying().(*types.Struct)
			if !ok {
				continue
			}
			key := types.TypeString(l.t, nil)
			if visited[key] {
				continue
			}
			visited[key] = true
			for i := 0; i < s.NumFields(); i++ {
				f := s.Field(i)
				idx := append(append([]int(nil), l.index...), i)
				if f.Name() == name {
					count++
					if count == 1 {
						found = idx
					}
					continue
				}
				if f.Embedded() {
					ft := f.Type()
					if p, ok := ft.Underlying().(*types.Pointer); ok {
						ft = p.Elem()
					}
					if _, ok := ft.Underlying().(*types.Struct); ok {
						next = append(next, level{ft, idx})
					}
				}
			}
		}
		if count == 1 {
			return found, true
		}
		if count > 1 {
			return nil, false
		}
		current = next
	}
	return nil, false
}

// structField builds the reflect.StructField of field i of struct type rt,
// with index path index.
func (t *thread) structField(rt *RType, i int, index []int) (Value, bool) {
	sfT := t.m.lookupType("reflect", "StructField")
	s := rt.T.Underlying().(*types.Struct)
	f := s.Field(i)
	ft, ok := t.reflectPkgType(t.m.types.get(f.Type()))
	if sfT == nil || !ok {
		return nil, false
	}
	sfS := sfT.T.Underlying().(*types.Struct)
	cells := append([]Value(nil), sfT.Zero().([]Value)...)
	idx := make([]Value, len(index))
	for k, x := range index {
		idx[k] = x
	}
	pkgPath := ""
	if !f.Exported() && f.Pkg() != nil {
		pkgPath = reflectPkgPath(f.Pkg())
	}
	for k := 0; k < sfS.NumFields(); k++ {
		var v Value
		switch sfS.Field(k).Name() {
		case "Name":
			v = f.Name()
		case "PkgPath":
			v = pkgPath
		case "Type":
			v = ft
		case "Tag":
			v = s.Tag(i)
		case "Offset":
			v = uintptr(gcSizes.Offsetsof(structFields(s))[i])
		case "Index":
			v = t.newSliceOf(t.m.types.get(types.Typ[types.Int]), idx)
		case "Anonymous":
			v = f.Embedded()
		default:
			continue
		}
		cells[sfT.Fields[k]] = v
	}
	return cells, true
}

// fieldAt returns the struct type and field number reached by index from rt
// (through embedded pointers), or false.
func fieldAt(reg *typeRegistry, rt *RType, index []int) (*RType, int, bool) {
	for k, i := range index {
		if p, ok := rt.T.Underlying().(*types.Pointer); ok && k > 0 {
			rt = reg.get(p.Elem())
		}
		s, ok := rt.T.Underlying().(*types.Struct)
		if !ok || i < 0 || i >= s.NumFields() {
			return nil, 0, false
		}
		if k == len(index)-1 {
			return rt, i, true
		}
		rt = reg.get(s.Field(i).Type())
	}
	return nil, 0, false
}

// fieldValue is Value.Field(i) of a struct value v.
func (t *thread) fieldValue(v rvalue, i int) rvalue {
	s := v.rt.T.Underlying().(*types.Struct)
	f := s.Field(i)
	ft := t.m.types.get(f.Type())
	fl := v.flag&(rflagStickyRO|rflagIndir|rflagAddr) | uintptr(reflectKind(ft.T))
	if !f.Exported() {
		if f.Embedded() {
			fl |= rflagEmbedRO
		} else {
			fl |= rflagStickyRO
		}
	}
	return rvalue{rt: ft, ptr: Pointer{Obj: v.ptr.Obj, Off: v.ptr.Off + int32(v.rt.Fields[i])}, flag: fl}
}

// elemValue is Value.Elem of a pointer or interface value.
func (t *thread) elemValue(v rvalue) rvalue {
	x := t.rload(v)
	if v.kind() == reflect.Interface {
		iv, _ := x.(Iface)
		e := t.valueOfIface(iv)
		if e.rt != nil {
			e.flag |= v.ro()
		}
		return e
	}
	if _, ok := x.(rtypeRef); ok && v.rt.Elem != nil {
		// a *reflect.rtype (a Type's dynamic value) has no VM memory: its
		// Elem is a zero rtype struct, of the kind Go reports (gocron
		// compares reflect.Indirect(reflect.ValueOf(typ)).Kind())
		return t.newRValue(v.rt.Elem, v.rt.Elem.Zero(), v.ro())
	}
	p, _ := x.(Pointer)
	if p.Obj == 0 {
		return rvalue{}
	}
	// (v.flag&rflagRO as reflect's Elem keeps it: a pointer reached by an
	// unexported embedded field stays embed-RO, so the exported fields of
	// what it points to are settable — pelletier/go-toml decodes a field
	// promoted through an unexported embedded pointer)
	return rvalue{rt: v.rt.Elem, ptr: p, flag: v.flag&rflagRO | rflagIndir | rflagAddr | uintptr(reflectKind(v.rt.Elem.T))}
}

// fieldByIndexValue is Value.FieldByIndex; a nil embedded pointer on the
// way panics as in reflect.
func (t *thread) fieldByIndexValue(v rvalue, index []int) (rvalue, ctl) {
	for k, i := range index {
		if k > 0 && v.kind() == reflect.Pointer && v.rt.Elem != nil && reflectKind(v.rt.Elem.T) == uint(reflect.Struct) {
			if isNilValue(t.rload(v)) {
				return rvalue{}, t.stringPanic("reflect: indirection through nil pointer to embedded struct")
			}
			v = t.elemValue(v)
		}
		if v.kind() != reflect.Struct {
			return rvalue{}, t.valueError("reflect.Value.Field", v.kind())
		}
		if i < 0 || i >= len(v.rt.Fields) {
			return rvalue{}, t.stringPanic("reflect: Field index out of range")
		}
		v = t.fieldValue(v, i)
	}
	return v, ctlNext
}

func intsOf(t *thread, v Value) []int {
	sl, _ := v.(Slice)
	cells := t.s.sliceCells(sl, t.m.types.get(types.Typ[types.Int]))
	out := make([]int, len(cells))
	for i, c := range cells {
		out[i] = toInt(c)
	}
	return out
}

func init() {
	rtypeMethod("Field", func(t *thread, rt *RType, args []Value) (Value, ctl) {
		s, ok := rt.T.Underlying().(*types.Struct)
		if !ok {
			return nil, t.stringPanic("reflect: Field of non-struct type " + reflectTypeString(rt.T))
		}
		i := toInt(args[0])
		if i < 0 || i >= s.NumFields() {
			return nil, t.stringPanic("reflect: Field index out of bounds")
		}
		sf, ok := t.structField(rt, i, []int{i})
		if !ok {
			return nil, t.unsupported(t.g.top, "reflect.StructField without package reflect's types")
		}
		return sf, ctlNext
	})
	lookup := (*thread).structFieldByIndex
	rtypeMethod("FieldByName", func(t *thread, rt *RType, args []Value) (Value, ctl) {
		if _, ok := rt.T.Underlying().(*types.Struct); !ok {
			return nil, t.stringPanic("reflect: FieldByName of non-struct type " + reflectTypeString(rt.T))
		}
		index, ok := fieldByName(rt.T, args[0].(string))
		if !ok {
			zero := t.m.lookupType("reflect", "StructField")
			if zero == nil {
				return nil, t.unsupported(t.g.top, "reflect.StructField without package reflect's types")
			}
			return Tuple{zero.Zero(), false}, ctlNext
		}
		sf, k := lookup(t, rt, index)
		if k != ctlNext {
			return nil, k
		}
		return Tuple{sf, true}, ctlNext
	})
	rtypeMethod("FieldByIndex", func(t *thread, rt *RType, args []Value) (Value, ctl) {
		if _, ok := rt.T.Underlying().(*types.Struct); !ok {
			return nil, t.stringPanic("reflect: FieldByIndex of non-struct type " + reflectTypeString(rt.T))
		}
		return lookup(t, rt, intsOf(t, args[0]))
	})
	rtypeMethod("NumMethod", func(t *thread, rt *RType, _ []Value) (Value, ctl) {
		return numMethod(rt), ctlNext
	})
	inOut := func(name string, tuple func(*types.Signature) *types.Tuple) {
		rtypeMethod(name, func(t *thread, rt *RType, args []Value) (Value, ctl) {
			sig, ok := rt.T.Underlying().(*types.Signature)
			if !ok {
				return nil, t.stringPanic("reflect: " + name + " of non-func type " + reflectTypeString(rt.T))
			}
			i := toInt(args[0])
			tup := tuple(sig)
			if i < 0 || i >= tup.Len() {
				return nil, t.runtimePanic(t.g.top, boundsMsg(i, tup.Len()))
			}
			v, ok := t.reflectPkgType(t.m.types.get(tup.At(i).Type()))
			if !ok {
				return nil, t.unsupported(t.g.top, "reflect.Type without package reflect's types")
			}
			return v, ctlNext
		})
	}
	inOut("In", (*types.Signature).Params)
	inOut("Out", (*types.Signature).Results)
}

// valueNavigation registers the methods of Value that reach other values.
func valueNavigation() {
	valueMethod("Elem", func(t *thread, v rvalue, _ []Value) (Value, ctl) {
		switch v.kind() {
		case reflect.Interface, reflect.Pointer:
			return packValue(t.elemValue(v)), ctlNext
		}
		return nil, t.valueError("reflect.Value.Elem", v.kind())
	})
	valueMethod("NumField", func(t *thread, v rvalue, _ []Value) (Value, ctl) {
		if v.kind() != reflect.Struct {
			return nil, t.valueError("reflect.Value.NumField", v.kind())
		}
		return len(v.rt.Fields), ctlNext
	})
	valueMethod("Field", func(t *thread, v rvalue, args []Value) (Value, ctl) {
		if v.kind() != reflect.Struct {
			return nil, t.valueError("reflect.Value.Field", v.kind())
		}
		i := toInt(args[0])
		if i < 0 || i >= len(v.rt.Fields) {
			return nil, t.stringPanic("reflect: Field index out of range")
		}
		return packValue(t.fieldValue(v, i)), ctlNext
	})
	valueMethod("FieldByIndex", func(t *thread, v rvalue, args []Value) (Value, ctl) {
		f, k := t.fieldByIndexValue(v, intsOf(t, args[0]))
		if k != ctlNext {
			return nil, k
		}
		return packValue(f), ctlNext
	})
	valueMethod("FieldByIndexErr", func(t *thread, v rvalue, args []Value) (Value, ctl) {
		index := intsOf(t, args[0])
		for k := range index { // a nil pointer to an embedded struct on the way is an error, not a panic
			if k == 0 {
				continue
			}
			w, c := t.fieldByIndexValue(v, index[:k])
			if c != ctlNext {
				return nil, c
			}
			if w.kind() == reflect.Pointer && w.rt.Elem != nil && reflectKind(w.rt.Elem.T) == uint(reflect.Struct) && isNilValue(t.rload(w)) {
				name := reflectTypeString(w.rt.Elem.T)
				if n, ok := types.Unalias(w.rt.Elem.T).(*types.Named); ok {
					name = n.Obj().Name() // (Type.Name)
				}
				return Tuple{packValue(rvalue{}), t.newError("reflect: indirection through nil pointer to embedded struct field " + name)}, ctlNext
			}
		}
		f, k := t.fieldByIndexValue(v, index)
		if k != ctlNext {
			return nil, k
		}
		return Tuple{packValue(f), Iface{}}, ctlNext
	})
	valueMethod("FieldByName", func(t *thread, v rvalue, args []Value) (Value, ctl) {
		if v.kind() != reflect.Struct {
			return nil, t.valueError("reflect.Value.FieldByName", v.kind())
		}
		index, ok := fieldByName(v.rt.T, args[0].(string))
		if !ok {
			return packValue(rvalue{}), ctlNext
		}
		f, k := t.fieldByIndexValue(v, index)
		if k != ctlNext {
			return nil, k
		}
		return packValue(f), ctlNext
	})
	valueMethod("Index", func(t *thread, v rvalue, args []Value) (Value, ctl) {
		i := toInt(args[0])
		switch v.kind() {
		case reflect.Slice:
			sl := t.rload(v).(Slice)
			if i < 0 || i >= sl.Len {
				return nil, t.stringPanic("reflect: slice index out of range")
			}
			e := v.rt.Elem
			p := Pointer{Obj: sl.Obj, Off: sl.Off + int32(i*e.Size)}
			return packValue(rvalue{rt: e, ptr: p, flag: rflagAddr | rflagIndir | v.ro() | uintptr(reflectKind(e.T))}), ctlNext
		case reflect.Array:
			if i < 0 || i >= v.rt.Len {
				return nil, t.stringPanic("reflect: array index out of range")
			}
			e := v.rt.Elem
			p := Pointer{Obj: v.ptr.Obj, Off: v.ptr.Off + int32(i*e.Size)}
			return packValue(rvalue{rt: e, ptr: p, flag: v.flag&(rflagIndir|rflagAddr) | v.ro() | uintptr(reflectKind(e.T))}), ctlNext
		case reflect.String:
			s := t.rload(v).(string)
			if i < 0 || i >= len(s) {
				return nil, t.stringPanic("reflect: string index out of range")
			}
			return packValue(t.newRValue(t.m.types.get(types.Typ[types.Uint8]), s[i], v.ro())), ctlNext
		}
		return nil, t.valueError("reflect.Value.Index", v.kind())
	})
	valueMethod("MapKeys", func(t *thread, v rvalue, _ []Value) (Value, ctl) {
		if v.kind() != reflect.Map {
			return nil, t.valueError("reflect.Value.MapKeys", v.kind())
		}
		valueT := t.m.lookupType("reflect", "Value")
		m := t.rload(v).(Map)
		var keys []Value
		if m.Obj != 0 {
			for _, e := range t.s.heap.get(m.Obj).Map.ents {
				if !e.dead {
					keys = append(keys, packValue(t.newRValue(v.rt.Key, e.k, v.ro())))
				}
			}
		}
		return t.newSliceOf(valueT, keys), ctlNext
	})
	valueMethod("MapIndex", func(t *thread, v rvalue, args []Value) (Value, ctl) {
		if v.kind() != reflect.Map {
			return nil, t.valueError("reflect.Value.MapIndex", v.kind())
		}
		key, ok := t.assignValue(valueArg(args[0]), v.rt.Key)
		if !ok {
			return nil, t.stringPanic("reflect.Value.MapIndex: value of type " + typeName(valueArg(args[0]).rt) + " is not assignable to type " + reflectTypeString(v.rt.Key.T))
		}
		m := t.rload(v).(Map)
		if m.Obj == 0 {
			return packValue(rvalue{}), ctlNext
		}
		e, found := t.s.heap.get(m.Obj).Map.lookup(key)
		if !found {
			return packValue(rvalue{}), ctlNext
		}
		return packValue(t.newRValue(v.rt.Elem, e, v.ro())), ctlNext
	})
	valueMethod("Addr", func(t *thread, v rvalue, _ []Value) (Value, ctl) {
		if v.flag&rflagAddr == 0 {
			return nil, t.stringPanic("reflect.Value.Addr of unaddressable value")
		}
		pt := t.m.types.get(types.NewPointer(v.rt.T))
		return packValue(t.newRValue(pt, v.ptr, v.ro())), ctlNext
	})
	valueMethod("UnsafeAddr", func(t *thread, v rvalue, _ []Value) (Value, ctl) {
		// the variable's address, as Addr().Pointer() gives it (dario.cat/mergo
		// and kr/pretty key the values they have visited by it)
		if v.rt == nil {
			return nil, t.valueError("reflect.Value.UnsafeAddr", reflect.Invalid)
		}
		if v.flag&rflagAddr == 0 {
			return nil, t.stringPanic("reflect.Value.UnsafeAddr of unaddressable value")
		}
		return t.s.addrOfPointer(v.ptr), ctlNext
	})
	valueMethod("Convert", func(t *thread, v rvalue, args []Value) (Value, ctl) {
		to := typeArg(args[0])
		if v.rt == nil {
			return nil, t.valueError("reflect.Value.Convert", reflect.Invalid)
		}
		if to == nil {
			return nil, t.runtimePanic(t.g.top, "invalid memory address or nil pointer dereference")
		}
		if !types.ConvertibleTo(v.rt.T, to.T) {
			return nil, t.stringPanic("reflect.Value.Convert: value of type " + reflectTypeString(v.rt.T) + " cannot be converted to type " + reflectTypeString(to.T))
		}
		x, ok := t.convertValue(t.rload(v), v.rt, to)
		if !ok {
			return nil, t.unsupported(t.g.top, "reflect.Value.Convert from "+reflectTypeString(v.rt.T)+" to "+reflectTypeString(to.T))
		}
		return packValue(t.newRValue(to, x, v.ro())), ctlNext
	})
	valueMethod("CanConvert", func(t *thread, v rvalue, args []Value) (Value, ctl) {
		to := typeArg(args[0])
		if v.rt == nil {
			return nil, t.valueError("reflect.Value.Type", reflect.Invalid)
		}
		if to == nil {
			return nil, t.runtimePanic(t.g.top, "invalid memory address or nil pointer dereference")
		}
		if !types.ConvertibleTo(v.rt.T, to.T) {
			return false, ctlNext
		}
		if _, ok := v.rt.T.Underlying().(*types.Slice); ok { // a slice to an array or array pointer: its length must do
			at, _ := to.T.Underlying().(*types.Array)
			if pt, ok := to.T.Underlying().(*types.Pointer); ok {
				at, _ = pt.Elem().Underlying().(*types.Array)
			}
			if at != nil && at.Len() > int64(t.rload(v).(Slice).Len) {
				return false, ctlNext
			}
		}
		return true, ctlNext
	})
}

// structFieldByIndex is the reflect.StructField of the field at index
// path index in struct type rt (Type.FieldByIndex).
func (t *thread) structFieldByIndex(rt *RType, index []int) (Value, ctl) {
	st, i, ok := fieldAt(rt.reg, rt, index)
	if !ok {
		return nil, t.stringPanic("reflect: FieldByIndex of invalid index")
	}
	sf, ok := t.structField(st, i, index)
	if !ok {
		return nil, t.unsupported(t.g.top, "reflect.StructField without package reflect's types")
	}
	return sf, ctlNext
}
