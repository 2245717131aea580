package vm

import (
	"go/types"
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
// SetMapIndex and MapRange natives_reflect_map.go, the channel operations
// (Send, Recv, TrySend, TryRecv, Close) natives_reflect_chan.go, Method
// and MethodByName natives_reflect_method.go. A method not modelled stops
// the run with "unsupported: call of ... (no body and no model)".

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
	if o := t.s.heap.get(v.ptr.Obj); o != nil && o.kind == objView {
		return t.s.viewLoad(o, v.ptr, v.rt)
	}
	return t.s.readCells(v.ptr, v.rt)
}

// rstore writes x to the variable v describes (its caller checked that v
// is settable).
func (t *thread) rstore(v rvalue, x Value) {
	t.raceAccess(t.g.top, v.ptr, v.rt.Size, true)
	if o := t.s.heap.get(v.ptr.Obj); o != nil && o.kind == objView {
		t.s.viewStore(o, v.ptr, v.rt, x)
		return
	}
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
	def("reflect.NewAt", nativeReflectNewAt)
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
