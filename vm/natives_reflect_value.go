package vm

import (
	"go/types"
	"math"
	"reflect"
)

// Native model of reflect.Value over VM values.
//
// Representation: a reflect.Value is, as in Go, the struct {typ_, ptr,
// flag} — three cells: the VM type (an rtypeRef; Pointer{} for the zero
// Value), a Pointer to memory holding the value, and the flag word with
// Go's bit layout (kind in the low 5 bits, flagStickyRO, flagEmbedRO,
// flagIndir, flagAddr). The value is always held in memory (flagIndir is
// always set): ValueOf copies its argument into a fresh object, and Elem of
// a pointer, Field of an addressable struct and Index of a slice point into
// the program's own memory, so Set through them writes the variable, as in
// Go. Code that reads the flag word through unsafe (go-spew's bypass) sees
// Go's read-only and addressable bits.
//
// Reads and writes through a Value are not scheduling points but are
// checked by the race detector, as Go's reflect is instrumented
// (TestRaceReflectRW of Go's race suite). reflect.Select is
// natives_reflect_select.go, Call, CallSlice and MakeFunc natives_reflect_call.go,
// SetMapIndex and MapRange natives_reflect_map.go. Not modelled: Method,
// MethodByName, channel operations (Send, Recv); calling one
// stops the run with "unsupported: call of ... (no body and no model)".

// Go's reflect.flag bits.
const (
	rflagKindMask = 1<<5 - 1
	rflagStickyRO = 1 << 5
	rflagEmbedRO  = 1 << 6
	rflagIndir    = 1 << 7
	rflagAddr     = 1 << 8
	rflagRO       = rflagStickyRO | rflagEmbedRO
)

// rvalue is an unpacked reflect.Value; rt is nil for the zero Value.
type rvalue struct {
	rt   *RType
	ptr  Pointer
	flag uintptr
}

func (v rvalue) kind() reflect.Kind { return reflect.Kind(v.flag & rflagKindMask) }

// ro is the read-only bit a value derived from v inherits.
func (v rvalue) ro() uintptr {
	if v.flag&rflagRO != 0 {
		return rflagStickyRO
	}
	return 0
}

// unpackValue reads the cells of a reflect.Value.
func unpackValue(v Value) rvalue {
	cells, _ := v.([]Value)
	if len(cells) != 3 {
		return rvalue{}
	}
	r, ok := cells[0].(rtypeRef)
	if !ok {
		return rvalue{}
	}
	p, _ := cells[1].(Pointer)
	return rvalue{rt: r.rt, ptr: p, flag: uintptr(toUint64(cells[2]))}
}

// packValue builds the cells of a reflect.Value.
func packValue(v rvalue) Value {
	if v.rt == nil {
		return []Value{Pointer{}, Pointer{}, uintptr(0)}
	}
	return []Value{rtypeRef{v.rt}, v.ptr, v.flag}
}

// load reads the value v describes.
func (t *thread) rload(v rvalue) Value {
	t.raceAccess(t.g.top, v.ptr, v.rt.Size, false)
	return t.s.readCells(v.ptr, v.rt)
}

// rstore writes x to the variable v describes (its caller checked that v
// is settable).
func (t *thread) rstore(v rvalue, x Value) {
	t.raceAccess(t.g.top, v.ptr, v.rt.Size, true)
	t.s.writeCells(v.ptr, v.rt, x)
}

// newRValue copies x (of type rt) into a fresh object and describes it.
func (t *thread) newRValue(rt *RType, x Value, flag uintptr) rvalue {
	p := t.alloc(rt)
	if rt.Size > 0 {
		t.s.writeCells(p, rt, x)
	}
	return rvalue{rt: rt, ptr: p, flag: flag | rflagIndir | uintptr(reflectKind(rt.T))}
}

// valueOfIface is reflect.ValueOf(iv).
func (t *thread) valueOfIface(iv Iface) rvalue {
	if iv.T == nil {
		return rvalue{}
	}
	return t.newRValue(iv.T, iv.V, 0)
}

// valueError panics as reflect does with a *reflect.ValueError.
func (t *thread) valueError(method string, k reflect.Kind) ctl {
	rt := t.m.lookupType("reflect", "ValueError")
	if rt == nil {
		return t.stringPanic("reflect: call of " + method + " on " + kindName(k) + " Value")
	}
	p := t.alloc(rt)
	t.setCell(p, int32(rt.Fields[0]), method)
	t.setCell(p, int32(rt.Fields[1]), uint(k))
	return t.doPanic(t.g.top, Iface{T: t.m.types.get(types.NewPointer(rt.T)), V: p})
}

func kindName(k reflect.Kind) string {
	if k == reflect.Invalid {
		return "zero"
	}
	return k.String()
}

// valueMethod registers a native method of reflect.Value.
func valueMethod(name string, fn func(t *thread, v rvalue, args []Value) (Value, ctl)) {
	def("(reflect.Value)."+name, func(t *thread, args []Value) (Value, ctl) {
		return fn(t, unpackValue(args[0]), args[1:])
	})
}

// valueArg unpacks a reflect.Value argument.
func valueArg(v Value) rvalue { return unpackValue(v) }

// assignValue returns x's value as a value of type to (wrapping it in an
// interface when to is one), or false when x is not assignable to it.
func (t *thread) assignValue(x rvalue, to *RType) (Value, bool) {
	if x.rt == nil || !types.AssignableTo(x.rt.T, to.T) {
		return nil, false
	}
	val := t.rload(x)
	if types.IsInterface(to.T) && !types.IsInterface(x.rt.T) {
		val = Iface{T: x.rt, V: val}
	}
	return val, true
}

// isZeroValue is reflect's IsZero: every cell zero, floats by their bits.
func isZeroValue(x Value, rt *RType) bool {
	cells, ok := x.([]Value)
	if !ok {
		cells = []Value{x}
	}
	zeros, ok := rt.Zero().([]Value)
	if !ok {
		zeros = []Value{rt.Zero()}
	}
	for i, c := range cells {
		zero := zeros[i]
		switch f := c.(type) {
		case float64:
			if f != 0 || 1/f < 0 {
				return false
			}
			continue
		case float32:
			if f != 0 || 1/f < 0 {
				return false
			}
			continue
		case complex128, complex64:
			if !equal(c, zero) {
				return false
			}
			continue
		}
		if !equal(c, zero) {
			return false
		}
	}
	return true
}

// convertValue is reflect's Value.Convert of x (of type from) to type to.
func (t *thread) convertValue(x Value, from, to *RType) (Value, bool) {
	fu, tu := from.T.Underlying(), to.T.Underlying()
	if types.IsInterface(to.T) {
		if types.IsInterface(from.T) {
			return x, true
		}
		return Iface{T: from, V: x}, true
	}
	if types.Identical(fu, tu) {
		return x, true
	}
	fb, fok := fu.(*types.Basic)
	tb, tok := tu.(*types.Basic)
	switch {
	case fok && tok:
		return convertBasic(x, fb.Kind(), tb.Kind())
	case fok && fb.Info()&types.IsString != 0:
		if s, ok := tu.(*types.Slice); ok {
			if basicKindOf(s.Elem()) == types.Byte {
				return t.newBytes([]byte(x.(string))), true
			}
			return t.newRunes([]rune(x.(string))), true
		}
	case tok && tb.Info()&types.IsString != 0:
		if s, ok := fu.(*types.Slice); ok {
			sl := x.(Slice)
			if basicKindOf(s.Elem()) == types.Byte {
				return string(t.s.bytesOf(sl)), true
			}
			return stringFromRunes(t.s.sliceCells(sl, from.Elem)), true
		}
	}
	if fp, ok := fu.(*types.Pointer); ok {
		if tp, ok := tu.(*types.Pointer); ok && types.Identical(fp.Elem().Underlying(), tp.Elem().Underlying()) {
			return x, true
		}
	}
	return nil, false
}

func init() {
	def("reflect.ValueOf", nativeReflectValueOf)
	def("reflect.Zero", nativeReflectZero)
	def("reflect.New", nativeReflectNew)
	ptrTo := func(t *thread, args []Value) (Value, ctl) {
		rt := typeArg(args[0])
		if rt == nil {
			return nil, t.runtimePanic(t.g.top, "invalid memory address or nil pointer dereference")
		}
		v, ok := t.reflectPkgType(t.m.types.get(types.NewPointer(rt.T)))
		if !ok {
			return nil, t.unsupported(t.g.top, "reflect.Type without package reflect's types")
		}
		return v, ctlNext
	}
	def("reflect.PointerTo", ptrTo)
	def("reflect.PtrTo", ptrTo)
	def("reflect.Indirect", nativeReflectIndirect)
	def("reflect.MakeSlice", nativeReflectMakeSlice)
	def("reflect.Append", nativeReflectAppend)
	def("(*reflect.ValueError).Error", nativeReflectValueErrorError)
	valueAccessors()
	valueNavigation()
	valueMutators()
	valueNumbers()
	valueComparisons()
}

// nativeReflectValueOf is reflect.ValueOf.
func nativeReflectValueOf(t *thread, args []Value) (Value, ctl) {
	iv, _ := args[0].(Iface)
	return packValue(t.valueOfIface(iv)), ctlNext
}

// nativeReflectZero is reflect.Zero.
func nativeReflectZero(t *thread, args []Value) (Value, ctl) {
	rt := typeArg(args[0])
	if rt == nil {
		return nil, t.stringPanic("reflect: Zero(nil)")
	}
	return packValue(t.newRValue(rt, rt.Zero(), 0)), ctlNext
}

func typeName(rt *RType) string {
	if rt == nil {
		return "<nil>"
	}
	return reflectTypeString(rt.T)
}

// valueAccessors registers the methods that read a Value.
func valueAccessors() {
	valueMethod("IsValid", func(t *thread, v rvalue, _ []Value) (Value, ctl) { return v.rt != nil, ctlNext })
	valueMethod("Kind", func(t *thread, v rvalue, _ []Value) (Value, ctl) { return uint(v.kind()), ctlNext })
	valueMethod("Type", func(t *thread, v rvalue, _ []Value) (Value, ctl) {
		if v.rt == nil {
			return nil, t.valueError("reflect.Value.Type", reflect.Invalid)
		}
		r, ok := t.reflectPkgType(v.rt)
		if !ok {
			return nil, t.unsupported(t.g.top, "reflect.Type without package reflect's types")
		}
		return r, ctlNext
	})
	valueMethod("CanAddr", func(t *thread, v rvalue, _ []Value) (Value, ctl) { return v.flag&rflagAddr != 0, ctlNext })
	valueMethod("CanSet", func(t *thread, v rvalue, _ []Value) (Value, ctl) {
		return v.flag&(rflagAddr|rflagRO) == rflagAddr, ctlNext
	})
	valueMethod("CanInterface", func(t *thread, v rvalue, _ []Value) (Value, ctl) {
		if v.rt == nil {
			return nil, t.valueError("reflect.Value.CanInterface", reflect.Invalid)
		}
		return v.flag&rflagRO == 0, ctlNext
	})
	valueMethod("Interface", func(t *thread, v rvalue, _ []Value) (Value, ctl) {
		if v.rt == nil {
			return nil, t.valueError("reflect.Value.Interface", reflect.Invalid)
		}
		if v.flag&rflagRO != 0 {
			return nil, t.stringPanic("reflect.Value.Interface: cannot return value obtained from unexported field or method")
		}
		x := t.rload(v)
		if v.kind() == reflect.Interface {
			return x, ctlNext
		}
		return Iface{T: v.rt, V: x}, ctlNext
	})
	valueMethod("IsNil", func(t *thread, v rvalue, _ []Value) (Value, ctl) {
		switch v.kind() {
		case reflect.Chan, reflect.Func, reflect.Map, reflect.Pointer, reflect.UnsafePointer, reflect.Interface, reflect.Slice:
			return isNilValue(t.rload(v)), ctlNext
		}
		return nil, t.valueError("reflect.Value.IsNil", v.kind())
	})
	valueMethod("IsZero", func(t *thread, v rvalue, _ []Value) (Value, ctl) {
		if v.rt == nil {
			return nil, t.valueError("reflect.Value.IsZero", reflect.Invalid)
		}
		return isZeroValue(t.rload(v), v.rt), ctlNext
	})
	lenCap := func(name string, isCap bool, kinds ...reflect.Kind) {
		valueMethod(name, func(t *thread, v rvalue, _ []Value) (Value, ctl) {
			k := v.kind()
			if k == reflect.Pointer && v.rt.Elem != nil && reflectKind(v.rt.Elem.T) == uint(reflect.Array) {
				return v.rt.Elem.Len, ctlNext
			}
			for _, ok := range kinds {
				if k == ok {
					if k == reflect.Array {
						return v.rt.Len, ctlNext
					}
					return t.lenCap(t.rload(v), v.rt.T, isCap), ctlNext
				}
			}
			return nil, t.valueError("reflect.Value."+name, k)
		})
	}
	lenCap("Len", false, reflect.Array, reflect.Chan, reflect.Map, reflect.Slice, reflect.String)
	lenCap("Cap", true, reflect.Array, reflect.Chan, reflect.Slice)
	scalar := func(name string, conv func(x Value) Value, kinds ...reflect.Kind) {
		valueMethod(name, func(t *thread, v rvalue, _ []Value) (Value, ctl) {
			for _, k := range kinds {
				if v.kind() == k {
					return conv(t.rload(v)), ctlNext
				}
			}
			return nil, t.valueError("reflect.Value."+name, v.kind())
		})
	}
	scalar("Int", func(x Value) Value { return toInt64(x) },
		reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64)
	scalar("Uint", func(x Value) Value { return toUint64(x) },
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr)
	scalar("Float", func(x Value) Value {
		if f, ok := x.(float32); ok {
			return float64(f)
		}
		return x.(float64)
	}, reflect.Float32, reflect.Float64)
	scalar("Complex", func(x Value) Value {
		if c, ok := x.(complex64); ok {
			return complex128(c)
		}
		return x.(complex128)
	}, reflect.Complex64, reflect.Complex128)
	scalar("Bool", func(x Value) Value { return x.(bool) }, reflect.Bool)
	valueMethod("String", func(t *thread, v rvalue, _ []Value) (Value, ctl) {
		switch v.kind() {
		case reflect.Invalid:
			return "<invalid Value>", ctlNext
		case reflect.String:
			return t.rload(v).(string), ctlNext
		}
		return "<" + reflectTypeString(v.rt.T) + " Value>", ctlNext
	})
	valueMethod("Bytes", func(t *thread, v rvalue, _ []Value) (Value, ctl) {
		if v.kind() == reflect.Slice && basicKindOf(v.rt.Elem.T) == types.Byte {
			return t.rload(v), ctlNext
		}
		return nil, t.valueError("reflect.Value.Bytes", v.kind())
	})
	pointer := func(name string, asUintptr bool) {
		valueMethod(name, func(t *thread, v rvalue, _ []Value) (Value, ctl) {
			switch v.kind() {
			case reflect.Pointer, reflect.Chan, reflect.Map, reflect.UnsafePointer, reflect.Func, reflect.Slice:
				x := t.rload(v)
				if !asUintptr {
					if p, ok := x.(Pointer); ok {
						return p, ctlNext
					}
					return nil, t.unsupported(t.g.top, "reflect.Value.UnsafePointer of a "+v.kind().String())
				}
				if p, ok := x.(Pointer); ok {
					return t.s.addrOfPointer(p), ctlNext
				}
				if isNilValue(x) {
					return uintptr(0), ctlNext
				}
				return uintptr(addrOf(x)), ctlNext
			}
			return nil, t.valueError("reflect.Value."+name, v.kind())
		})
	}
	pointer("Pointer", true)
	pointer("UnsafePointer", false)
	valueMethod("NumMethod", func(t *thread, v rvalue, _ []Value) (Value, ctl) {
		if v.rt == nil {
			return nil, t.valueError("reflect.Value.NumMethod", reflect.Invalid)
		}
		return numMethod(v.rt), ctlNext
	})
}

// numMethod is reflect's Type.NumMethod: the methods of an interface, the
// exported methods of any other type's method set.
func numMethod(rt *RType) int {
	if it, ok := rt.T.Underlying().(*types.Interface); ok {
		return it.NumMethods()
	}
	r := rt.reg
	r.mu.Lock()
	ms := r.msets.MethodSet(rt.T)
	r.mu.Unlock()
	n := 0
	for i := 0; i < ms.Len(); i++ {
		if ms.At(i).Obj().Exported() {
			n++
		}
	}
	return n
}

// valueMutators registers the methods of Value that write a variable.
func valueMutators() {
	settable := func(t *thread, v rvalue, method string) (bool, ctl) {
		if v.flag&rflagRO != 0 {
			return false, t.stringPanic("reflect: " + method + " using value obtained using unexported field")
		}
		if v.flag&rflagAddr == 0 {
			return false, t.stringPanic("reflect: " + method + " using unaddressable value")
		}
		return true, ctlNext
	}
	write := func(t *thread, v rvalue, x Value) {
		if t.s.heap.get(v.ptr.Obj).shared {
			t.share(x)
		}
		t.rstore(v, x)
	}
	valueMethod("Set", func(t *thread, v rvalue, args []Value) (Value, ctl) {
		if ok, k := settable(t, v, "reflect.Value.Set"); !ok {
			return nil, k
		}
		x := valueArg(args[0])
		if x.flag&rflagRO != 0 {
			return nil, t.stringPanic("reflect: reflect.Value.Set using value obtained using unexported field")
		}
		val, ok := t.assignValue(x, v.rt)
		if !ok {
			return nil, t.stringPanic("reflect.Set: value of type " + typeName(x.rt) + " is not assignable to type " + reflectTypeString(v.rt.T))
		}
		write(t, v, val)
		return nil, ctlNext
	})
	set := func(name string, kinds []reflect.Kind, conv func(x Value, to types.BasicKind) Value) {
		valueMethod(name, func(t *thread, v rvalue, args []Value) (Value, ctl) {
			if ok, k := settable(t, v, "reflect.Value."+name); !ok {
				return nil, k
			}
			for _, k := range kinds {
				if v.kind() == k {
					write(t, v, conv(args[0], basicKindOf(v.rt.T)))
					return nil, ctlNext
				}
			}
			return nil, t.valueError("reflect.Value."+name, v.kind())
		})
	}
	numeric := func(from types.BasicKind) func(x Value, to types.BasicKind) Value {
		return func(x Value, to types.BasicKind) Value {
			v, _ := convertBasic(x, from, to)
			return v
		}
	}
	set("SetInt", []reflect.Kind{reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64}, numeric(types.Int64))
	set("SetUint", []reflect.Kind{reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr}, numeric(types.Uint64))
	set("SetFloat", []reflect.Kind{reflect.Float32, reflect.Float64}, numeric(types.Float64))
	set("SetComplex", []reflect.Kind{reflect.Complex64, reflect.Complex128}, numeric(types.Complex128))
	set("SetBool", []reflect.Kind{reflect.Bool}, func(x Value, _ types.BasicKind) Value { return x })
	set("SetString", []reflect.Kind{reflect.String}, func(x Value, _ types.BasicKind) Value { return x })
}

// isReflectValue reports whether rt is reflect.Value.
func (rt *RType) isReflectValue() bool {
	n, ok := rt.T.(*types.Named)
	return ok && n.Obj().Name() == "Value" && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "reflect"
}

// valueNumbers registers the range checks and kind tests of numbers.
func valueNumbers() {
	bits := func(v rvalue) int64 { return gcSizes.Sizeof(v.rt.T) * 8 }
	valueMethod("OverflowInt", func(t *thread, v rvalue, args []Value) (Value, ctl) {
		switch v.kind() {
		case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
			x := toInt64(args[0])
			s := uint(bits(v))
			trunc := (x << (64 - s)) >> (64 - s)
			return x != trunc, ctlNext
		}
		return nil, t.valueError("reflect.Value.OverflowInt", v.kind())
	})
	valueMethod("OverflowUint", func(t *thread, v rvalue, args []Value) (Value, ctl) {
		switch v.kind() {
		case reflect.Uint, reflect.Uintptr, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
			x := toUint64(args[0])
			s := uint(bits(v))
			trunc := (x << (64 - s)) >> (64 - s)
			return x != trunc, ctlNext
		}
		return nil, t.valueError("reflect.Value.OverflowUint", v.kind())
	})
	valueMethod("OverflowFloat", func(t *thread, v rvalue, args []Value) (Value, ctl) {
		switch v.kind() {
		case reflect.Float32:
			x := args[0].(float64)
			if x < 0 {
				x = -x
			}
			return math.MaxFloat32 < x && x <= math.MaxFloat64, ctlNext
		case reflect.Float64:
			return false, ctlNext
		}
		return nil, t.valueError("reflect.Value.OverflowFloat", v.kind())
	})
	can := func(name string, kinds ...reflect.Kind) {
		valueMethod(name, func(t *thread, v rvalue, _ []Value) (Value, ctl) {
			for _, k := range kinds {
				if v.kind() == k {
					return true, ctlNext
				}
			}
			return false, ctlNext
		})
	}
	can("CanInt", reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64)
	can("CanUint", reflect.Uint, reflect.Uintptr, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64)
	can("CanFloat", reflect.Float32, reflect.Float64)
	can("CanComplex", reflect.Complex64, reflect.Complex128)
	valueMethod("SetLen", func(t *thread, v rvalue, args []Value) (Value, ctl) {
		if v.flag&(rflagAddr|rflagRO) != rflagAddr {
			return nil, t.stringPanic("reflect: reflect.Value.SetLen using unaddressable value")
		}
		if v.kind() != reflect.Slice {
			return nil, t.valueError("reflect.Value.SetLen", v.kind())
		}
		sl := t.rload(v).(Slice)
		n := toInt(args[0])
		if n < 0 || n > sl.Cap {
			return nil, t.stringPanic("reflect: slice length out of range in SetLen")
		}
		sl.Len = n
		t.rstore(v, sl)
		return nil, ctlNext
	})
	valueMethod("SetZero", func(t *thread, v rvalue, _ []Value) (Value, ctl) {
		if v.flag&(rflagAddr|rflagRO) != rflagAddr {
			return nil, t.stringPanic("reflect: reflect.Value.SetZero using unaddressable value")
		}
		t.rstore(v, v.rt.Zero())
		return nil, ctlNext
	})
	valueMethod("Grow", func(t *thread, v rvalue, args []Value) (Value, ctl) {
		if v.flag&(rflagAddr|rflagRO) != rflagAddr {
			return nil, t.stringPanic("reflect: reflect.Value.Grow using unaddressable value")
		}
		if v.kind() != reflect.Slice {
			return nil, t.valueError("reflect.Value.Grow", v.kind())
		}
		n := toInt(args[0])
		if n < 0 {
			return nil, t.stringPanic("reflect.Value.Grow: negative len")
		}
		sl := t.rload(v).(Slice)
		if sl.Len+n > sl.Cap {
			grown := t.makeSlice(v.rt.Elem, sl.Len, sl.Len+n)
			t.copyCells(grown, t.s.sliceCells(sl, v.rt.Elem), v.rt.Elem)
			t.rstore(v, grown)
		}
		return nil, ctlNext
	})
}

// valueComparisons registers Value.Equal and Value.Comparable.
func valueComparisons() {
	deref := func(t *thread, v rvalue) rvalue {
		if v.kind() == reflect.Interface {
			return t.elemValue(v)
		}
		return v
	}
	valueMethod("Equal", func(t *thread, v rvalue, args []Value) (Value, ctl) {
		v, u := deref(t, v), deref(t, valueArg(args[0]))
		if v.rt == nil || u.rt == nil {
			return (v.rt == nil) == (u.rt == nil), ctlNext
		}
		if v.rt != u.rt {
			return false, ctlNext
		}
		if !types.Comparable(v.rt.T) {
			return nil, t.stringPanic("reflect.Value.Equal: values of type " + reflectTypeString(v.rt.T) + " are not comparable")
		}
		a, b := t.rload(v), t.rload(u)
		if msg := uncomparable(a, b); msg != "" {
			return nil, t.runtimePanic(t.g.top, msg)
		}
		return equal(a, b), ctlNext
	})
	valueMethod("Comparable", func(t *thread, v rvalue, _ []Value) (Value, ctl) {
		v = deref(t, v)
		return v.rt == nil || types.Comparable(v.rt.T), ctlNext
	})
}

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
	method := o.Cells[int(p.Off)+rt.Fields[0]].(string)
	k := reflect.Kind(toUint64(o.Cells[int(p.Off)+rt.Fields[1]]))
	return "reflect: call of " + method + " on " + kindName(k) + " Value", ctlNext
}
