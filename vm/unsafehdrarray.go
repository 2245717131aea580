package vm

import "go/types"

// A string's or slice's words read as an array of uintptr:
// (*[2]uintptr)(unsafe.Pointer(&s)) and (*[3]uintptr)(unsafe.Pointer(&b)),
// and a string or slice made from such an array,
// *(*[]byte)(unsafe.Pointer(&[3]uintptr{data, n, n})) — smallnest/ringbuffer's
// WriteString. The VM keeps a string or slice in one cell (unsafestr.go):
// element 0 of the array is that cell read as a uintptr (the data word),
// elements 1 and 2 are its length and capacity words (hdrWord), as the
// fields of reflect.StringHeader and SliceHeader are.

// headerArray reports whether t is [2]uintptr or [3]uintptr, the words of
// a string or a slice, or [2]unsafe.Pointer, the words of an interface
// ((*[2]unsafe.Pointer)(unsafe.Pointer(&n))[1]: its data word, as
// maypok86/otter reads a node's pointer).
func headerArray(t types.Type) bool {
	a, ok := t.Underlying().(*types.Array)
	if ok && a.Len() == 2 && basicKindOf(a.Elem()) == types.UnsafePointer {
		return true
	}
	return ok && (a.Len() == 2 || a.Len() == 3) && basicKindOf(a.Elem()) == types.Uintptr
}

// headerElemAddr is &x[k] for k > 0 of a header array at p: the length or
// capacity word when the cell at p holds a string or a slice, the data
// word when it holds an interface, else the element's address as for any
// array.
func (t *thread) headerElemAddr(p Pointer, k int) Value {
	o := t.s.heap.get(p.Obj)
	if int(p.Off) < len(o.Cells) {
		switch o.Cells[p.Off].(type) {
		case string, Slice, Iface:
			return hdrWord{p: p, k: k}
		}
	}
	return Pointer{Obj: p.Obj, Off: p.Off + int32(k)}
}

// headerLayout reports whether t is laid out as a string header (2 words)
// or a slice header (3 words): a header-shaped struct or a header array.
func headerLayout(t types.Type) (words int, ok bool) {
	switch u := t.Underlying().(type) {
	case *types.Struct:
		return u.NumFields(), headerShaped(u)
	case *types.Array:
		return int(u.Len()), headerArray(u) && basicKindOf(u.Elem()) == types.Uintptr
	}
	return 0, false
}
