package vm

import (
	"fmt"
	"go/types"
)

// Arrays of numbers over numbers of another width: *(*[8]byte)(unsafe.Pointer(&x))
// for x a uint64 (binary encoders, hashers), or *(*[2]uint64)(p) over bytes.
// Each element is read or written at its byte offset in the memory
// (memRead, memWrite), as loadBytes and storeBytes do for one number.

// castArrayElem is the element type of rt when rt is an array of numbers
// and the cell at p holds a number of another width (a load or store that
// must go to the bytes), nil otherwise.
func (t *thread) castArrayElem(p Pointer, rt *RType) *RType {
	if !rt.Agg || p.Obj == 0 {
		return nil
	}
	elem := t.numArrayElem(rt)
	if elem == nil || !t.castWidthDiffers(p, elem) {
		return nil
	}
	return elem
}

// numArrayElem is the element type of rt when rt is an array of numbers,
// nil otherwise.
func (t *thread) numArrayElem(rt *RType) *RType {
	at, ok := rt.T.Underlying().(*types.Array)
	if !ok || numKind(at.Elem()) < 0 {
		return nil
	}
	return t.m.types.get(at.Elem())
}

// castArraySpan checks that the n elements of elem from p lie in p's
// object of numbers and makes the access's scheduling point and race
// check; ok is false with the ctl to return.
func (t *thread) castArraySpan(fr *frame, p Pointer, off int64, elem *RType, n int, write bool) (*Object, ctl, bool) {
	o := t.s.heap.get(p.Obj)
	w := uniformWidth(o)
	size := int(gcSizes.Sizeof(elem.T))
	first, _, cells, ok := memSpan(o, int(p.Off), off, n*size, w)
	if !ok {
		return nil, t.unsupported(fr, fmt.Sprintf("an array of %d %s past the end of memory of %s (memory reinterpreted through unsafe.Pointer)", n, elem, o.T)), false
	}
	if c := t.memAccess(fr, Pointer{Obj: p.Obj, Off: int32(first)}, cells, write); c != ctlNext {
		return nil, c, false
	}
	return o, ctlNext, true
}

// loadCastArray loads an array of numbers (rt, of elem) from the bytes of
// the numbers of another width from byte off of the cell at p.
func (t *thread) loadCastArray(fr *frame, p Pointer, off int64, rt, elem *RType, dst int) ctl {
	n := rt.Size / elem.Size
	o, c, ok := t.castArraySpan(fr, p, off, elem, n, false)
	if !ok {
		return c
	}
	k, size := numKind(elem.T), int(gcSizes.Sizeof(elem.T))
	cells := make([]Value, n)
	for i := range cells {
		bits, ok := memRead(o, int(p.Off), off+int64(i*size), size)
		if !ok {
			return t.unsupported(fr, fmt.Sprintf("memory of %s read as %s (memory reinterpreted through unsafe.Pointer)", o.T, rt))
		}
		cells[i] = kindBits(k, bits)
	}
	fr.regs[dst] = cells
	return ctlNext
}

// storeCastArray stores array v (rt, of elem) into the bytes of the
// numbers of another width from byte off of the cell at p.
func (t *thread) storeCastArray(fr *frame, p Pointer, off int64, rt, elem *RType, v Value) ctl {
	vs := v.([]Value)
	if _, c, ok := t.castArraySpan(fr, p, off, elem, len(vs), true); !ok {
		return c
	}
	size := int(gcSizes.Sizeof(elem.T))
	o := t.s.heap.mut(p.Obj, t.s.epoch)
	for i, x := range vs {
		if numWidth(x) == 0 || !memWrite(o, int(p.Off), off+int64(i*size), size, numBits(x)) {
			return t.unsupported(fr, fmt.Sprintf("memory of %s written as %s (memory reinterpreted through unsafe.Pointer)", o.T, rt))
		}
	}
	return ctlNext
}
