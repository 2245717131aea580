package vm

import (
	"go/types"
	"reflect"
)

// reflect's functions that make Values: TypeAssert, New, NewAt, Indirect,
// MakeSlice, Append; and (*reflect.ValueError).Error.

// reflect.TypeAssert[T](v) is v.Interface().(T) with the comma-ok result
// (a native per instance).
func init() {
	genericNatives["reflect.TypeAssert"] = func(m *Machine, targs []types.Type) *nativeFunc {
		rt := m.types.get(targs[0])
		return &nativeFunc{name: "reflect.TypeAssert", fn: func(t *thread, args []Value) (Value, ctl) {
			v := valueArg(args[0])
			if v.rt == nil {
				return nil, t.valueError("reflect.TypeAssert", reflect.Invalid)
			}
			if v.flag&rflagRO != 0 {
				return nil, t.stringPanic("reflect: reflect.TypeAssert: cannot return value obtained from unexported field or method")
			}
			x := t.rload(v)
			iv, isIface := x.(Iface)
			if !isIface || v.kind() != reflect.Interface {
				iv = Iface{T: v.rt, V: x}
			}
			if it, ok := rt.T.Underlying().(*types.Interface); ok {
				if iv.T != nil && iv.T.implements(it) {
					return Tuple{iv, true}, ctlNext
				}
				return Tuple{Iface{}, false}, ctlNext
			}
			if iv.T == rt {
				return Tuple{iv.V, true}, ctlNext
			}
			return Tuple{rt.Zero(), false}, ctlNext
		}}
	}
}

// nativeReflectNew is reflect.New.
func nativeReflectNew(t *thread, args []Value) (Value, ctl) {
	rt := typeArg(args[0])
	if rt == nil {
		return nil, t.stringPanic("reflect: New(nil)")
	}
	pt := t.m.types.get(types.NewPointer(rt.T))
	return packValue(t.newRValue(pt, t.alloc(rt), 0)), ctlNext
}

// nativeReflectNewAt is reflect.NewAt: a Value of type *typ holding p
// (go-spew v1.1.0's bypass makes one at the ptr word of a Value to read an
// unexported field).
func nativeReflectNewAt(t *thread, args []Value) (Value, ctl) {
	rt := typeArg(args[0])
	if rt == nil {
		return nil, t.stringPanic("reflect: NewAt(nil)")
	}
	p, _ := args[1].(Pointer)
	pt := t.m.types.get(types.NewPointer(rt.T))
	return packValue(t.newRValue(pt, p, 0)), ctlNext
}

// nativeReflectIndirect is reflect.Indirect.
func nativeReflectIndirect(t *thread, args []Value) (Value, ctl) {
	v := valueArg(args[0])
	if v.kind() != reflect.Pointer {
		return args[0], ctlNext
	}
	return packValue(t.elemValue(v)), ctlNext
}

// nativeReflectMakeSlice is reflect.MakeSlice.
func nativeReflectMakeSlice(t *thread, args []Value) (Value, ctl) {
	rt := typeArg(args[0])
	if rt == nil || reflectKind(rt.T) != uint(reflect.Slice) {
		return nil, t.stringPanic("reflect.MakeSlice of non-slice type")
	}
	n, c := toInt(args[1]), toInt(args[2])
	switch {
	case n < 0:
		return nil, t.stringPanic("reflect.MakeSlice: negative len")
	case c < 0:
		return nil, t.stringPanic("reflect.MakeSlice: negative cap")
	case n > c:
		return nil, t.stringPanic("reflect.MakeSlice: len > cap")
	}
	return packValue(t.newRValue(rt, t.makeSlice(rt.Elem, n, c), 0)), ctlNext
}

// nativeReflectAppend is reflect.Append.
func nativeReflectAppend(t *thread, args []Value) (Value, ctl) {
	s := valueArg(args[0])
	if s.kind() != reflect.Slice {
		return nil, t.valueError("reflect.Append", s.kind())
	}
	xsl := args[1].(Slice)
	valueT := t.m.lookupType("reflect", "Value")
	vals := make([]Value, 0, xsl.Len)
	for i := 0; i < xsl.Len; i++ {
		x := t.s.sliceElem(xsl, valueT, i)
		val, ok := t.assignValue(valueArg(x), s.rt.Elem)
		if !ok {
			return nil, t.stringPanic("reflect.Set: value of type " + typeName(valueArg(x).rt) + " is not assignable to type " + reflectTypeString(s.rt.Elem.T))
		}
		vals = append(vals, val)
	}
	sl := t.appendSlice(t.rload(s).(Slice), s.rt.Elem, vals)
	return packValue(t.newRValue(s.rt, sl, 0)), ctlNext
}

// nativeReflectValueErrorError is (*reflect.ValueError).Error.
func nativeReflectValueErrorError(t *thread, args []Value) (Value, ctl) {
	p := args[0].(Pointer)
	if p.Obj == 0 {
		return nil, t.runtimePanic(t.g.top, "invalid memory address or nil pointer dereference")
	}
	rt := t.m.lookupType("reflect", "ValueError")
	o := t.s.heap.get(p.Obj)
	method := o.cell(int(p.Off) + rt.Fields[0]).(string)
	k := reflect.Kind(toUint64(o.cell(int(p.Off) + rt.Fields[1])))
	return "reflect: call of " + method + " on " + kindName(k) + " Value", ctlNext
}
