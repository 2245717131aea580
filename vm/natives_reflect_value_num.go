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
	type check struct {
		name, class string
		fits        func(rt *RType, x Value) (overflows, ok bool)
	}
	for _, c := range []check{{"OverflowInt", "int", overflowInt}, {"OverflowUint", "uint", overflowUint}, {"OverflowFloat", "float", overflowFloat}} {
		valueMethod(c.name, func(t *thread, v rvalue, args []Value) (Value, ctl) {
			if v.rt != nil {
				if over, ok := c.fits(v.rt, args[0]); ok {
					return over, ctlNext
				}
			}
			return nil, t.valueError("reflect.Value."+c.name, v.kind())
		})
		// Type's, since go1.23 (encoding/json's decoder checks a number
		// against its field's type with them)
		rtypeMethod(c.name, func(t *thread, rt *RType, args []Value) (Value, ctl) {
			if over, ok := c.fits(rt, args[0]); ok {
				return over, ctlNext
			}
			return nil, t.stringPanic("reflect: " + c.name + " of non-" + c.class + " type " + reflectTypeString(rt.T))
		})
	}
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

// overflowInt reports whether x overflows rt, a signed integer type
// (ok false for any other type).
func overflowInt(rt *RType, x Value) (overflows, ok bool) {
	switch reflect.Kind(reflectKind(rt.T)) {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return !fitsBits(toInt64(x), rt), true
	}
	return false, false
}

// overflowUint reports whether x overflows rt, an unsigned integer type
// (ok false for any other type).
func overflowUint(rt *RType, x Value) (overflows, ok bool) {
	switch reflect.Kind(reflectKind(rt.T)) {
	case reflect.Uint, reflect.Uintptr, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return !fitsBits(toUint64(x), rt), true
	}
	return false, false
}

// fitsBits reports whether v survives truncation to the size of integer
// type rt (sign-extended for a signed v).
func fitsBits[T int64 | uint64](v T, rt *RType) bool {
	s := uint(64 - gcSizes.Sizeof(rt.T)*8)
	return v == (v<<s)>>s
}

// overflowFloat reports whether x overflows rt, a float type (ok false
// for any other type).
func overflowFloat(rt *RType, x Value) (overflows, ok bool) {
	switch reflect.Kind(reflectKind(rt.T)) {
	case reflect.Float32:
		v := math.Abs(x.(float64))
		return math.MaxFloat32 < v && v <= math.MaxFloat64, true
	case reflect.Float64:
		return false, true
	}
	return false, false
}
