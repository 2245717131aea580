package vm

import (
	"go/types"
	"reflect"
)

// internal/reflectlite's Value.Elem and Value.Set, which package errors
// (run from its source) uses in errors.As to store the error found into
// *target. The reflectlite.Value model (natives_adapt.go) holds the
// interface it describes in its first cell; a Value made by Elem of a
// pointer also holds, in its second cell (Go's ptr field), the Pointer to
// the variable, which makes it settable.

func init() {
	const rl = "internal/reflectlite"
	def("("+rl+".Value).Elem", nativeInternalReflectliteValueElem)
	def("("+rl+".Value).Set", nativeInternalReflectliteValueSet)
}

// reflectliteValue builds a reflectlite.Value describing iv; p is the
// variable it lives in (Pointer{}: not addressable).
func (t *thread) reflectliteValue(iv Iface, p Pointer) (Value, bool) {
	rt := t.m.lookupType("internal/reflectlite", "Value")
	if rt == nil || rt.Size < 2 {
		return nil, false
	}
	cells := append([]Value(nil), rt.Zero().([]Value)...)
	cells[0] = iv
	cells[1] = p
	return cells, true
}

// nativeInternalReflectliteValueElem is (internal/reflectlite.Value).Elem:
// the value a pointer points to (settable) or an interface holds.
func nativeInternalReflectliteValueElem(t *thread, args []Value) (Value, ctl) {
	cells, _ := args[0].([]Value)
	var iv Iface
	if len(cells) > 0 {
		iv, _ = cells[0].(Iface)
	}
	if iv.T == nil {
		return nil, t.stringPanic("reflect: call of reflectlite.Value.Elem on zero Value")
	}
	switch reflect.Kind(reflectKind(iv.T.T)) {
	case reflect.Pointer:
		p, _ := iv.V.(Pointer)
		if p.Obj == 0 {
			v, _ := t.reflectliteValue(Iface{}, Pointer{})
			return v, ctlNext
		}
		elem := iv.T.Elem
		t.raceAccess(t.g.top, p, elem.Size, false)
		// of an interface variable, the Value describes the interface
		// itself (its dynamic value is one more Elem away)
		x := Iface{T: elem, V: t.s.readCells(p, elem)}
		v, ok := t.reflectliteValue(x, p)
		if !ok {
			return nil, t.unsupported(t.g.top, "internal/reflectlite.Value.Elem")
		}
		return v, ctlNext
	case reflect.Interface:
		inner, _ := iv.V.(Iface)
		v, ok := t.reflectliteValue(inner, Pointer{})
		if !ok {
			return nil, t.unsupported(t.g.top, "internal/reflectlite.Value.Elem")
		}
		return v, ctlNext
	}
	return nil, t.stringPanic("reflect: call of reflectlite.Value.Elem on " + kindName(reflect.Kind(reflectKind(iv.T.T))) + " Value")
}

// nativeInternalReflectliteValueSet is (internal/reflectlite.Value).Set:
// x (assignable to v's type, as errors.As checked) is written to the
// variable v describes.
func nativeInternalReflectliteValueSet(t *thread, args []Value) (Value, ctl) {
	cells, _ := args[0].([]Value)
	xcells, _ := args[1].([]Value)
	if len(cells) < 2 || len(xcells) < 1 {
		return nil, t.unsupported(t.g.top, "internal/reflectlite.Value.Set")
	}
	iv, _ := cells[0].(Iface)
	p, _ := cells[1].(Pointer)
	if iv.T == nil || p.Obj == 0 {
		return nil, t.stringPanic("reflect: reflectlite.Value.Set using unaddressable value")
	}
	x, _ := xcells[0].(Iface)
	elem := iv.T
	var v Value = x
	if !types.IsInterface(elem.T) {
		if x.T == nil || !types.AssignableTo(x.T.T, elem.T) {
			return nil, t.stringPanic("reflect: reflectlite.Set: value not assignable to type " + elem.String())
		}
		v = x.V
	}
	if t.s.heap.get(p.Obj).shared {
		t.share(v)
	}
	t.raceAccess(t.g.top, p, elem.Size, true)
	t.s.writeCells(p, elem, v)
	return nil, ctlNext
}
