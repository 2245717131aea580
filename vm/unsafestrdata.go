package vm

import (
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// A string's data word as an unsafe.Pointer.
//
// tidwall/gjson declares its own string and slice headers with an
// unsafe.Pointer data word (struct{ data unsafe.Pointer; len int }) and
// compares the data pointers of a string and of a substring to find where
// the substring starts (fillIndex, getBytes), and builds a []byte over a
// string's bytes (stringBytes). The VM's strings already have addresses
// (unsafestr.go: a region per host backing array, so a substring shares
// its parent's region at its offset); here the data word read as
// unsafe.Pointer is that region's strPtr, the same value unsafe.StringData
// gives, and a []byte or string loaded from a header whose data word holds
// a strPtr is the bytes it describes.
//
// Only loads that reinterpret memory reach this code: a load of a string
// cell as a non-string type, a two-word struct over a string cell, a
// string or slice over a cell holding a strPtr.
//
// An empty string's data word is nil, as unsafe.StringData gives in the VM:
// Go leaves it unspecified ("may be nil"); gc gives nil for "" and for the
// zero value, and the parent's pointer for an empty substring, which the
// VM's boxed "" does not remember.

// strDataWord is the data word of s read as type ft (uintptr or
// unsafe.Pointer), or why it has none.
func (m *Machine) strDataWord(s string, ft types.Type) (Value, string) {
	if basicKindOf(ft) == types.UnsafePointer {
		if s == "" {
			return Pointer{}, ""
		}
		sp, ok := m.strPointer(s)
		if !ok {
			return nil, strApartMsg
		}
		return sp, ""
	}
	a, why := m.strAddr(s)
	return a, why
}

// loadFromStrData reads a value of type rt from a cell holding a strPtr:
// the data word of a header-shaped struct (gjson's sliceHeader over a
// string's bytes) read as the string or []byte it describes.
func (t *thread) loadFromStrData(fr *frame, o *Object, p Pointer, sp strPtr, rt *RType, dst int) ctl {
	n, c, msg := headerWords(o, p, rt, "a pointer to a string's bytes")
	if msg != "" {
		return t.unsupported(fr, msg)
	}
	return t.sliceOfStrBytes(fr, sp, rt, n, c, dst)
}

// bytesForStringLoad reports whether in loads a []byte through a pointer
// converted from unsafe.Pointer and every use of the result converts it to
// a string (gjson's getBytes: string(*(*[]byte)(unsafe.Pointer(&h)))):
// the slice's capacity is then never observed, and a header whose
// capacity runs past the string bytes the program has seen (gjson gives a
// substring's header its parent's length as capacity) is read with its
// length as capacity instead of stopping the run.
func bytesForStringLoad(in *ssa.UnOp) bool {
	cv, ok := in.X.(*ssa.Convert)
	if !ok || basicKindOf(cv.X.Type()) != types.UnsafePointer || !isByteSlice(in.Type()) {
		return false
	}
	refs := in.Referrers()
	if refs == nil || len(*refs) == 0 {
		return false
	}
	for _, r := range *refs {
		c, ok := r.(*ssa.Convert)
		if !ok || !isStringType(c.Type()) {
			return false
		}
	}
	return true
}
