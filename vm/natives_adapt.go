package vm

import (
	"errors"
	"go/types"
	"reflect"
	"runtime"
	"strings"
)

// The reflection adapter: pure standard-library functions whose parameters
// and results are basic types (named or not), slices of basic types, or
// error, are registered as natives by wrapping the real Go function with
// reflect (adapt("math.Sqrt", math.Sqrt)). Arguments are converted from VM
// values (the Go value of the underlying basic kind, Slice, Iface) to the
// function's parameter types with reflect.Value.Convert; results are
// converted back. A panic of the wrapped function becomes a panic of the
// VM program with the same message. Slices are copied in and out, so
// adapted functions must not keep, mutate or return (sub)slices of their
// arguments: functions that do (bytes.TrimSpace, utf8.EncodeRune, ...) are
// left interpreted.
//
// This file also models the few internal/reflectlite operations that the
// interpreted packages sort and context need: TypeOf (String, Comparable,
// Kind...), ValueOf(x).Len and Swapper.

var goErrorType = reflect.TypeFor[error]()

// adapt registers the Go function fn as the native name.
func adapt(name string, fn any) {
	rv := reflect.ValueOf(fn)
	ft := rv.Type()
	if ft.Kind() != reflect.Func {
		panic("gmc: adapt of a non-function: " + name)
	}
	for i := 0; i < ft.NumIn(); i++ {
		if !adaptable(ft.In(i)) {
			panic("gmc: adapt " + name + ": parameter type " + ft.In(i).String())
		}
	}
	for i := 0; i < ft.NumOut(); i++ {
		if !adaptable(ft.Out(i)) {
			panic("gmc: adapt " + name + ": result type " + ft.Out(i).String())
		}
	}
	def(name, func(t *thread, args []Value) (res Value, k ctl) {
		if len(args) != ft.NumIn() {
			return nil, t.unsupported(t.g.top, "call of "+name+" with "+itoa(len(args))+" arguments")
		}
		in := make([]reflect.Value, len(args))
		for i, a := range args {
			v, ok := t.goValueOf(a, ft.In(i))
			if !ok {
				return nil, t.unsupported(t.g.top, "argument of type "+ft.In(i).String()+" to "+name)
			}
			in[i] = v
		}
		defer func() {
			if r := recover(); r != nil {
				res, k = nil, t.goPanic(r)
			}
		}()
		var out []reflect.Value
		if ft.IsVariadic() {
			out = rv.CallSlice(in)
		} else {
			out = rv.Call(in)
		}
		switch len(out) {
		case 0:
			return nil, ctlNext
		case 1:
			return t.vmValueOf(out[0]), ctlNext
		}
		tup := make(Tuple, len(out))
		for i, o := range out {
			tup[i] = t.vmValueOf(o)
		}
		return tup, ctlNext
	})
}

// adaptPkg adapts every function of fns as pkg.Name.
func adaptPkg(pkg string, fns map[string]any) {
	for name, fn := range fns {
		adapt(pkg+"."+name, fn)
	}
}

// goPanic turns a panic of a wrapped Go function into a panic of the VM
// program with the same message.
func (t *thread) goPanic(r any) ctl {
	switch x := r.(type) {
	case runtime.Error:
		return t.runtimePanic(t.g.top, strings.TrimPrefix(x.Error(), "runtime error: "))
	case string:
		return t.stringPanic(x)
	case error:
		return t.plainPanic(t.g.top, x.Error())
	}
	return t.plainPanic(t.g.top, reflect.ValueOf(r).String())
}

func adaptable(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64, reflect.Complex64, reflect.Complex128, reflect.String:
		return true
	case reflect.Slice:
		return t.Elem().Kind() != reflect.Slice && adaptable(t.Elem()) && t.Elem().Kind() != reflect.Interface
	case reflect.Interface:
		return t == goErrorType
	}
	return false
}

// goValueOf converts the VM value v to a Go value of type typ.
func (t *thread) goValueOf(v Value, typ reflect.Type) (reflect.Value, bool) {
	switch typ.Kind() {
	case reflect.Slice:
		sl, ok := v.(Slice)
		if !ok {
			return reflect.Value{}, false
		}
		if sl.Obj == 0 {
			return reflect.Zero(typ), true
		}
		if typ.Elem().Kind() == reflect.Uint8 {
			return reflect.ValueOf(t.s.bytesOf(sl)).Convert(typ), true
		}
		cells := t.s.sliceCells(sl, nil8)
		out := reflect.MakeSlice(typ, len(cells), len(cells))
		for i, c := range cells {
			ev, ok := t.goValueOf(c, typ.Elem())
			if !ok {
				return reflect.Value{}, false
			}
			out.Index(i).Set(ev)
		}
		return out, true
	case reflect.Interface:
		iv, ok := v.(Iface)
		if !ok {
			return reflect.Value{}, false
		}
		if iv.T == nil {
			return reflect.Zero(typ), true
		}
		msg, k := t.errorMessage(iv)
		if k != ctlNext {
			return reflect.Value{}, false
		}
		return reflect.ValueOf(errors.New(msg)), true
	}
	rv := reflect.ValueOf(v)
	if !rv.IsValid() || !rv.CanConvert(typ) {
		return reflect.Value{}, false
	}
	return rv.Convert(typ), true
}

// basicKinds maps reflect kinds to the go/types basic kinds of the VM.
var basicKinds = map[reflect.Kind]types.BasicKind{
	reflect.Bool: types.Bool, reflect.Int: types.Int, reflect.Int8: types.Int8, reflect.Int16: types.Int16,
	reflect.Int32: types.Int32, reflect.Int64: types.Int64, reflect.Uint: types.Uint, reflect.Uint8: types.Uint8,
	reflect.Uint16: types.Uint16, reflect.Uint32: types.Uint32, reflect.Uint64: types.Uint64,
	reflect.Uintptr: types.Uintptr, reflect.Float32: types.Float32, reflect.Float64: types.Float64,
	reflect.Complex64: types.Complex64, reflect.Complex128: types.Complex128, reflect.String: types.String,
}

// vmValueOf converts a Go value (of an adaptable type) to a VM value.
func (t *thread) vmValueOf(rv reflect.Value) Value {
	switch rv.Kind() {
	case reflect.Bool:
		return rv.Bool()
	case reflect.Int:
		return int(rv.Int())
	case reflect.Int8:
		return int8(rv.Int())
	case reflect.Int16:
		return int16(rv.Int())
	case reflect.Int32:
		return int32(rv.Int())
	case reflect.Int64:
		return rv.Int()
	case reflect.Uint:
		return uint(rv.Uint())
	case reflect.Uint8:
		return uint8(rv.Uint())
	case reflect.Uint16:
		return uint16(rv.Uint())
	case reflect.Uint32:
		return uint32(rv.Uint())
	case reflect.Uint64:
		return rv.Uint()
	case reflect.Uintptr:
		return uintptr(rv.Uint())
	case reflect.Float32:
		return float32(rv.Float())
	case reflect.Float64:
		return rv.Float()
	case reflect.Complex64:
		return complex64(rv.Complex())
	case reflect.Complex128:
		return rv.Complex()
	case reflect.String:
		return rv.String()
	case reflect.Slice:
		if rv.IsNil() {
			return Slice{}
		}
		if rv.Type().Elem().Kind() == reflect.Uint8 {
			return t.newBytes(rv.Bytes())
		}
		elem := t.m.types.get(types.Typ[basicKinds[rv.Type().Elem().Kind()]])
		vals := make([]Value, rv.Len())
		for i := range vals {
			vals[i] = t.vmValueOf(rv.Index(i))
		}
		return t.newSliceOf(elem, vals)
	case reflect.Interface:
		if rv.IsNil() {
			return Iface{}
		}
		return t.newError(rv.Interface().(error).Error())
	}
	return nil
}

// --- internal/reflectlite ---

// rtypeRef is the VM value of a reflectlite.rtype's only cell: the VM type
// it describes.
type rtypeRef struct{ rt *RType }

func (r rtypeRef) hashInto(h *hasher) { h.int(int64(r.rt.ID)) }

// reflectType returns the reflectlite.Type (an interface holding an
// rtype) describing rt, or the nil interface for a nil rt.
func (t *thread) reflectType(rt *RType) Value {
	if rt == nil {
		return Iface{}
	}
	rtT := t.m.lookupType("internal/reflectlite", "rtype")
	if rtT == nil {
		return Iface{}
	}
	return Iface{T: rtT, V: []Value{rtypeRef{rt}}}
}

// rtypeOf returns the VM type described by a reflectlite rtype receiver.
func rtypeOf(v Value) *RType {
	if cells, ok := v.([]Value); ok && len(cells) > 0 {
		if r, ok := cells[0].(rtypeRef); ok {
			return r.rt
		}
	}
	return nil
}

// reflectKind returns the reflect.Kind number of a type.
func reflectKind(t types.Type) uint {
	switch u := t.Underlying().(type) {
	case *types.Basic:
		switch u.Kind() {
		case types.Bool:
			return uint(reflect.Bool)
		case types.Int:
			return uint(reflect.Int)
		case types.Int8:
			return uint(reflect.Int8)
		case types.Int16:
			return uint(reflect.Int16)
		case types.Int32:
			return uint(reflect.Int32)
		case types.Int64:
			return uint(reflect.Int64)
		case types.Uint:
			return uint(reflect.Uint)
		case types.Uint8:
			return uint(reflect.Uint8)
		case types.Uint16:
			return uint(reflect.Uint16)
		case types.Uint32:
			return uint(reflect.Uint32)
		case types.Uint64:
			return uint(reflect.Uint64)
		case types.Uintptr:
			return uint(reflect.Uintptr)
		case types.Float32:
			return uint(reflect.Float32)
		case types.Float64:
			return uint(reflect.Float64)
		case types.Complex64:
			return uint(reflect.Complex64)
		case types.Complex128:
			return uint(reflect.Complex128)
		case types.String:
			return uint(reflect.String)
		case types.UnsafePointer:
			return uint(reflect.UnsafePointer)
		}
	case *types.Array:
		return uint(reflect.Array)
	case *types.Chan:
		return uint(reflect.Chan)
	case *types.Signature:
		return uint(reflect.Func)
	case *types.Interface:
		return uint(reflect.Interface)
	case *types.Map:
		return uint(reflect.Map)
	case *types.Pointer:
		return uint(reflect.Pointer)
	case *types.Slice:
		return uint(reflect.Slice)
	case *types.Struct:
		return uint(reflect.Struct)
	}
	return uint(reflect.Invalid)
}

func init() {
	const rl = "internal/reflectlite"
	def(rl+".TypeOf", nativeInternalReflectliteTypeOf)
	def("("+rl+".rtype).String", nativeInternalReflectliteRtypeString)
	def("("+rl+".rtype).Name", func(t *thread, args []Value) (Value, ctl) {
		if rt := rtypeOf(args[0]); rt != nil {
			switch n := types.Unalias(rt.T).(type) {
			case *types.Named:
				return rt.String()[strings.LastIndexByte(rt.String(), '.')+1:], ctlNext
			case *types.Basic:
				return n.Name(), ctlNext
			}
		}
		return "", ctlNext
	})
	def("("+rl+".rtype).PkgPath", func(t *thread, args []Value) (Value, ctl) {
		if rt := rtypeOf(args[0]); rt != nil {
			if n, ok := types.Unalias(rt.T).(*types.Named); ok && n.Obj().Pkg() != nil {
				return n.Obj().Pkg().Path(), ctlNext
			}
		}
		return "", ctlNext
	})
	def("("+rl+".rtype).Comparable", func(t *thread, args []Value) (Value, ctl) {
		rt := rtypeOf(args[0])
		return rt != nil && types.Comparable(rt.T), ctlNext
	})
	def("("+rl+".rtype).Kind", nativeInternalReflectliteRtypeKind)
	def("("+rl+".rtype).Size", nativeInternalReflectliteRtypeSize)
	def("("+rl+".rtype).Elem", nativeInternalReflectliteRtypeElem)
	def("("+rl+".rtype).Implements", func(t *thread, args []Value) (Value, ctl) {
		rt := rtypeOf(args[0])
		u, _ := args[1].(Iface)
		ut := rtypeOf(u.V)
		if ut == nil {
			return nil, t.stringPanic("reflect: nil type passed to Type.Implements")
		}
		it, ok := ut.T.Underlying().(*types.Interface)
		if !ok {
			return nil, t.stringPanic("reflect: non-interface type passed to Type.Implements")
		}
		return rt != nil && types.Implements(rt.T, it), ctlNext
	})
	def("("+rl+".rtype).AssignableTo", func(t *thread, args []Value) (Value, ctl) {
		rt := rtypeOf(args[0])
		u, _ := args[1].(Iface)
		ut := rtypeOf(u.V)
		if ut == nil {
			return nil, t.stringPanic("reflect: nil type passed to Type.AssignableTo")
		}
		return rt != nil && types.AssignableTo(rt.T, ut.T), ctlNext
	})
	// A reflectlite.Value holds the interface it was made from in its first cell.
	def(rl+".ValueOf", nativeInternalReflectliteValueOf)
	valueIface := func(v Value) Iface {
		if cells, ok := v.([]Value); ok && len(cells) > 0 {
			iv, _ := cells[0].(Iface)
			return iv
		}
		return Iface{}
	}
	def("("+rl+".Value).Len", func(t *thread, args []Value) (Value, ctl) {
		iv := valueIface(args[0])
		if iv.T == nil {
			return nil, t.stringPanic("reflect: call of reflect.Value.Len on zero Value")
		}
		switch x := iv.V.(type) {
		case Slice:
			return x.Len, ctlNext
		case string:
			return len(x), ctlNext
		}
		if iv.T.Agg && iv.T.Elem != nil {
			return iv.T.Len, ctlNext
		}
		return t.lenCap(iv.V, iv.T.T, false), ctlNext
	})
	def("("+rl+".Value).IsNil", func(t *thread, args []Value) (Value, ctl) {
		return isNilValue(valueIface(args[0]).V), ctlNext
	})
	def("("+rl+".Value).IsValid", func(t *thread, args []Value) (Value, ctl) {
		return valueIface(args[0]).T != nil, ctlNext
	})
	def("("+rl+".Value).Kind", func(t *thread, args []Value) (Value, ctl) {
		iv := valueIface(args[0])
		if iv.T == nil {
			return uint8(0), ctlNext
		}
		return uint8(reflectKind(iv.T.T)), ctlNext
	})
	def("("+rl+".Value).Type", func(t *thread, args []Value) (Value, ctl) {
		return t.reflectType(valueIface(args[0]).T), ctlNext
	})
	swap := &nativeFunc{name: rl + ".Swapper.func", fn: func(t *thread, args []Value) (Value, ctl) {
		iv := args[0].(Iface)
		sl := iv.V.(Slice)
		i, j := toInt(args[1]), toInt(args[2])
		if uint(i) >= uint(sl.Len) {
			return nil, t.runtimePanic(t.g.top, boundsMsg(i, sl.Len))
		}
		if uint(j) >= uint(sl.Len) {
			return nil, t.runtimePanic(t.g.top, boundsMsg(j, sl.Len))
		}
		elem := iv.T.Elem
		pi := Pointer{Obj: sl.Obj, Off: sl.Off + int32(i*elem.Size)}
		pj := Pointer{Obj: sl.Obj, Off: sl.Off + int32(j*elem.Size)}
		t.raceAccess(t.g.top, pi, elem.Size, true)
		t.raceAccess(t.g.top, pj, elem.Size, true)
		vi, vj := t.s.readCells(pi, elem), t.s.readCells(pj, elem)
		t.s.writeCells(pi, elem, vj)
		t.s.writeCells(pj, elem, vi)
		return nil, ctlNext
	}}
	def(rl+".Swapper", func(t *thread, args []Value) (Value, ctl) {
		iv, _ := args[0].(Iface)
		if iv.T == nil {
			return nil, t.plainPanic(t.g.top, "reflect: call of Swapper on zero Value")
		}
		if _, ok := iv.T.T.Underlying().(*types.Slice); !ok {
			return nil, t.plainPanic(t.g.top, "reflect: call of Swapper on "+iv.T.String()+" Value")
		}
		return &Closure{Native: swap, Bound: iv}, ctlNext
	})
}

// nativeInternalReflectliteTypeOf is internal/reflectlite.TypeOf.
func nativeInternalReflectliteTypeOf(t *thread, args []Value) (Value, ctl) {
	iv, _ := args[0].(Iface)
	return t.reflectType(iv.T), ctlNext
}

// nativeInternalReflectliteRtypeString is (internal/reflectlite.rtype).String.
func nativeInternalReflectliteRtypeString(t *thread, args []Value) (Value, ctl) {
	if rt := rtypeOf(args[0]); rt != nil {
		return rt.String(), ctlNext
	}
	return "<nil>", ctlNext
}

// nativeInternalReflectliteRtypeKind is (internal/reflectlite.rtype).Kind.
func nativeInternalReflectliteRtypeKind(t *thread, args []Value) (Value, ctl) {
	rt := rtypeOf(args[0])
	if rt == nil {
		return uint8(0), ctlNext
	}
	return uint8(reflectKind(rt.T)), ctlNext
}

// nativeInternalReflectliteRtypeSize is (internal/reflectlite.rtype).Size.
func nativeInternalReflectliteRtypeSize(t *thread, args []Value) (Value, ctl) {
	rt := rtypeOf(args[0])
	if rt == nil {
		return uintptr(0), ctlNext
	}
	return uintptr(rt.byteSize()), ctlNext
}

// nativeInternalReflectliteRtypeElem is (internal/reflectlite.rtype).Elem.
func nativeInternalReflectliteRtypeElem(t *thread, args []Value) (Value, ctl) {
	rt := rtypeOf(args[0])
	if rt == nil || rt.Elem == nil {
		return nil, t.stringPanic("reflect: Elem of invalid type")
	}
	return t.reflectType(rt.Elem), ctlNext
}

// nativeInternalReflectliteValueOf is internal/reflectlite.ValueOf.
func nativeInternalReflectliteValueOf(t *thread, args []Value) (Value, ctl) {
	rt := t.m.lookupType("internal/reflectlite", "Value")
	if rt == nil {
		return nil, t.unsupported(t.g.top, "internal/reflectlite"+".ValueOf")
	}
	cells := append([]Value(nil), rt.Zero().([]Value)...)
	cells[0] = args[0]
	return cells, ctlNext
}
