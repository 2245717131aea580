package vm

import (
	"go/types"
	"reflect"
)

// reflect.Value.Slice and Slice3 over the VM's values, as reflect's: a
// slice of an addressable array (its type []Elem), of a slice (its own
// type) or, for Slice, of a string (its own type); the result shares the
// operand's cells and is not addressable.

func init() {
	def("(reflect.Value).Slice", nativeReflectValueSlice)
	def("(reflect.Value).Slice3", nativeReflectValueSlice3)
}

// nativeReflectValueSlice is reflect.Value.Slice(i, j).
func nativeReflectValueSlice(t *thread, args []Value) (Value, ctl) {
	v := unpackValue(args[0])
	i, j := toInt(args[1]), toInt(args[2])
	if v.kind() == reflect.String {
		s := t.rload(v).(string)
		if i < 0 || j < i || j > len(s) {
			return nil, t.stringPanic("reflect.Value.Slice: string slice index out of bounds")
		}
		return packValue(t.newRValue(v.rt, s[i:j], v.ro())), ctlNext
	}
	return t.reflectSlice(v, "reflect.Value.Slice", i, j, -1)
}

// nativeReflectValueSlice3 is reflect.Value.Slice3(i, j, k).
func nativeReflectValueSlice3(t *thread, args []Value) (Value, ctl) {
	v := unpackValue(args[0])
	return t.reflectSlice(v, "reflect.Value.Slice3", toInt(args[1]), toInt(args[2]), toInt(args[3]))
}

// reflectSlice slices the array or slice v from i to j (capacity up to k,
// or to v's capacity when k < 0).
func (t *thread) reflectSlice(v rvalue, op string, i, j, k int) (Value, ctl) {
	var base Slice
	rt := v.rt
	switch v.kind() {
	case reflect.Array:
		if v.flag&rflagAddr == 0 {
			return nil, t.stringPanic(op + ": slice of unaddressable array")
		}
		base = Slice{Obj: v.ptr.Obj, Off: v.ptr.Off, Len: v.rt.Len, Cap: v.rt.Len}
		rt = t.m.types.get(types.NewSlice(v.rt.Elem.T))
	case reflect.Slice:
		base = t.rload(v).(Slice)
	default:
		return nil, t.valueError(op, v.kind())
	}
	if k < 0 {
		k = base.Cap
		if i < 0 || j < i || j > k {
			return nil, t.stringPanic(op + ": slice index out of bounds")
		}
	} else if i < 0 || j < i || k < j || k > base.Cap {
		return nil, t.stringPanic(op + ": slice index out of bounds")
	}
	sl := Slice{Obj: base.Obj, Off: base.Off, Len: j - i, Cap: k - i}
	if base.Obj != 0 {
		sl.Off += int32(i * rt.Elem.Size)
	}
	return packValue(t.newRValue(rt, sl, v.ro())), ctlNext
}
