package vm

import (
	"go/types"
	"math"
	"reflect"
)

// The methods of reflect.Value on numbers (range checks, kind tests) and
// comparisons.

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
