package vm

import (
	"go/types"
	"reflect"
)

// reflect.Copy, as the builtin copy: the elements move and the race
// detector sees the source read and the destination written, as Go's
// typedslicecopy annotates them (TestRaceReflectCopyWW of Go's race suite).

func init() { def("reflect.Copy", reflectCopy) }

func reflectCopy(t *thread, args []Value) (Value, ctl) {
	dst, src := valueArg(args[0]), valueArg(args[1])
	dk, sk := dst.kind(), src.kind()
	if dk != reflect.Array && dk != reflect.Slice {
		return nil, t.valueError("reflect.Copy", dk)
	}
	if dst.flag&rflagRO != 0 || src.flag&rflagRO != 0 {
		return nil, t.stringPanic("reflect: reflect.Copy using value obtained using unexported field")
	}
	if dk == reflect.Array && dst.flag&rflagAddr == 0 {
		return nil, t.stringPanic("reflect: reflect.Copy using unaddressable value")
	}
	elem := dst.rt.Elem
	stringCopy := sk == reflect.String && reflect.Kind(reflectKind(elem.T)) == reflect.Uint8
	if sk != reflect.Array && sk != reflect.Slice && !stringCopy {
		return nil, t.valueError("reflect.Copy", sk)
	}
	if !stringCopy && !types.Identical(elem.T, src.rt.Elem.T) {
		return nil, t.stringPanic("reflect.Copy: " + reflectTypeString(elem.T) + " != " + reflectTypeString(src.rt.Elem.T))
	}
	d := t.rview(dst)
	var cells []Value
	if stringCopy {
		s := t.rload(src).(string)
		for i := 0; i < len(s) && i < d.Len; i++ {
			cells = append(cells, s[i])
		}
	} else {
		s := t.rview(src)
		t.raceSlice(t.g.top, s, elem, min(s.Len, d.Len), false)
		cells = t.s.sliceCells(s, elem)
	}
	n := t.copyCells(d, cells, elem)
	t.raceSlice(t.g.top, d, elem, n, true)
	return n, ctlNext
}

// rview returns the elements of an array or slice Value as a slice.
func (t *thread) rview(v rvalue) Slice {
	if v.kind() == reflect.Slice {
		return t.rload(v).(Slice)
	}
	return Slice{Obj: v.ptr.Obj, Off: v.ptr.Off, Len: v.rt.Len, Cap: v.rt.Len}
}

func init() { def("reflect.AppendSlice", reflectAppendSlice) }

// reflectAppendSlice is reflect.AppendSlice: append(s, t...) of two
// slices of identical element types, the elements of t read as the
// builtin append reads them (vmihailenco/msgpack grows the slices it
// decodes into with it).
func reflectAppendSlice(t *thread, args []Value) (Value, ctl) {
	s, x := valueArg(args[0]), valueArg(args[1])
	if s.kind() != reflect.Slice {
		return nil, t.valueError("reflect.AppendSlice", s.kind())
	}
	if x.kind() != reflect.Slice {
		return nil, t.valueError("reflect.AppendSlice", x.kind())
	}
	elem := s.rt.Elem
	if !types.Identical(elem.T, x.rt.Elem.T) {
		return nil, t.stringPanic("reflect.AppendSlice: " + reflectTypeString(elem.T) + " != " + reflectTypeString(x.rt.Elem.T))
	}
	xs := t.rload(x).(Slice)
	t.raceSlice(t.g.top, xs, elem, xs.Len, false)
	vals := make([]Value, xs.Len)
	for i := range vals {
		vals[i] = t.s.sliceElem(xs, elem, i)
	}
	sl := t.appendSlice(t.rload(s).(Slice), elem, vals)
	return packValue(t.newRValue(s.rt, sl, 0)), ctlNext
}
