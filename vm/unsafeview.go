package vm

import (
	"fmt"
	"go/types"
	"math"

	"golang.org/x/tools/go/ssa"
)

// Typed views of memory: numbers read and written as other numbers.
//
// A cell holds one Go value of its variable's type, so the VM's memory is
// not bytes. Real modules still take views of it through unsafe.Pointer:
// dgraph-io/ristretto's z.BytesToUint64Slice points a []uint64's
// SliceHeader at a []byte's first byte and its B-tree reads and writes the
// words; its bbloom bit set reads and writes the byte (idx%64)>>3 of a
// uint64 cell through uintptr arithmetic. Here such accesses reach the
// bytes of the numbers the cells hold, little-endian as on amd64:
//
//   - an address inside a number's cell (byte k of a uint64) converted to
//     unsafe.Pointer is a cellByte; a load or store through it reads or
//     writes the bytes it covers, in that cell and the next ones;
//   - a load or store through a pointer converted from unsafe.Pointer
//     whose type is wider or narrower than the cell's number does the same
//     (*(*uint64)(unsafe.Pointer(&b[0])) reads eight byte cells);
//   - a slice whose Data word is set to memory of numbers of another width
//     (hdr.Data = uintptr(unsafe.Pointer(&b[0])) in a []uint64's header)
//     is a view: an object of kind objView whose first cells name the
//     memory (a pointer to its first cell and a byte offset in it) and
//     whose elements, at cells viewHdr.., are never stored: a load or store
//     of one goes to the bytes of the memory it names.
//
// The memory viewed must be numbers of one width (a slice's backing array,
// a variable, an array of numbers); anything else, or a view past the end
// of its memory, stops the run as unsupported. Only the code that takes
// such views pays: plain loads and stores test the object's kind (one
// byte of an object they read anyway); cellBytes and cast loads and
// stores are compiled only where the program converts from
// unsafe.Pointer, and the store of a header's Data word only where a
// header-shaped struct's Data field is written.

// objView is the kind of a view's object (heap.go's objKind).
const objView objKind = 8 // apart from heap.go's iota list

// viewHdr is the number of cells before a view's first element: the
// pointer to the memory's first cell and the byte offset in it.
const viewHdr = 2

// cellByte is a pointer to byte k (0 < k < the cell's width) of the
// number held by the cell at p.
type cellByte struct {
	p Pointer
	k int
}

func (c cellByte) hashInto(h *hasher) {
	h.obj(c.p.Obj)
	h.int(int64(c.p.Off))
	h.int(int64(c.k))
}

// numWidth is the width in bytes of a cell holding v, 0 when v is not a
// number.
func numWidth(v Value) int {
	switch v.(type) {
	case int, int64, uint, uint64, uintptr, float64:
		return 8
	case int32, uint32, float32:
		return 4
	case int16, uint16:
		return 2
	case int8, uint8:
		return 1
	}
	return 0
}

// numBits is the bits of number v (numWidth(v) > 0).
func numBits(v Value) uint64 {
	switch x := v.(type) {
	case float64:
		return math.Float64bits(x)
	case float32:
		return uint64(math.Float32bits(x))
	}
	return toUint64(v)
}

// withBits is a number of the same Go type as v holding bits.
func withBits(v Value, bits uint64) Value {
	switch v.(type) {
	case int:
		return int(bits)
	case int64:
		return int64(bits)
	case uint:
		return uint(bits)
	case uint64:
		return bits
	case uintptr:
		return uintptr(bits)
	case float64:
		return math.Float64frombits(bits)
	case int32:
		return int32(bits)
	case uint32:
		return uint32(bits)
	case float32:
		return math.Float32frombits(uint32(bits))
	case int16:
		return int16(bits)
	case uint16:
		return uint16(bits)
	case int8:
		return int8(bits)
	case uint8:
		return uint8(bits)
	}
	return v
}

// kindBits is a number of basic kind k holding bits.
func kindBits(k types.BasicKind, bits uint64) Value {
	switch k {
	case types.Float64:
		return math.Float64frombits(bits)
	case types.Float32:
		return math.Float32frombits(uint32(bits))
	}
	return intOfKind(k, bits)
}

// numKind is the basic kind of a number type (-1 for other types).
func numKind(t types.Type) types.BasicKind {
	k := basicKindOf(t)
	if k < 0 || basicInfo(k)&(types.IsInteger|types.IsFloat) == 0 {
		return -1
	}
	return k
}

// uniformWidth is the width of every cell of o when o holds numbers of one
// width one after the other (a variable of a number type, an array or a
// slice's backing array of numbers), 0 otherwise.
func uniformWidth(o *Object) int {
	if o == nil || o.kind != objCells || o.T == nil {
		return 0
	}
	t := o.T.T
	for {
		at, ok := t.Underlying().(*types.Array)
		if !ok {
			break
		}
		t = at.Elem()
	}
	if numKind(t) < 0 {
		return 0
	}
	return int(gcSizes.Sizeof(t))
}

// memSpan locates n bytes starting at byte off of cell c of a memory of
// uniform width w: the first cell, the byte in it and the number of cells
// covered; ok is false when they run outside the object's cells.
func memSpan(o *Object, c int, off int64, n, w int) (first, k, cells int, ok bool) {
	if w == 0 || off < 0 && int64(c)*int64(w)+off < 0 {
		return 0, 0, 0, false
	}
	start := int64(c)*int64(w) + off
	first, k = int(start/int64(w)), int(start%int64(w))
	cells = (k + n + w - 1) / w
	return first, k, cells, first+cells <= o.numCells()
}

// memRead reads n bytes (n ≤ 8) at byte off of cell c of object o as a
// little-endian number; ok is false when they are not all bytes of
// numbers of o.
func memRead(o *Object, c int, off int64, n int) (uint64, bool) {
	w := uniformWidth(o)
	first, k, cells, ok := memSpan(o, c, off, n, w)
	if !ok {
		return 0, false
	}
	var bits uint64
	shift := 0
	for i := 0; i < cells; i++ {
		v := o.cell(first + i)
		if numWidth(v) != w {
			return 0, false
		}
		b := numBits(v)
		lo := 0
		if i == 0 {
			lo = k
		}
		for j := lo; j < w && shift < 8*n; j++ {
			bits |= (b >> (8 * j) & 0xff) << shift
			shift += 8
		}
	}
	return bits, true
}

// memWrite writes the n low bytes of bits at byte off of cell c of object
// o (mutable), keeping the other bytes of the cells it covers.
func memWrite(o *Object, c int, off int64, n int, bits uint64) bool {
	w := uniformWidth(o)
	first, k, cells, ok := memSpan(o, c, off, n, w)
	if !ok {
		return false
	}
	for i := 0; i < cells; i++ {
		if numWidth(o.cell(first+i)) != w {
			return false
		}
	}
	shift := 0
	for i := 0; i < cells; i++ {
		v := o.cell(first + i)
		b := numBits(v)
		lo := 0
		if i == 0 {
			lo = k
		}
		for j := lo; j < w && shift < 8*n; j++ {
			b = b&^(0xff<<(8*j)) | (bits>>shift&0xff)<<(8*j)
			shift += 8
		}
		o.setCell(first+i, withBits(v, b))
	}
	return true
}

// memAccess is the scheduling point and race check of an access of cells
// cells from p, as load and store make them for one value.
func (t *thread) memAccess(fr *frame, p Pointer, cells int, write bool) ctl {
	o := t.s.heap.get(p.Obj)
	if o.shared && p.Obj != t.m.zerobase && fr.fn.shared && !t.hidden {
		if t.yieldBefore() {
			return ctlYield
		}
		t.sharedAccess(p.Obj, write)
	}
	if t.s.race != nil {
		t.raceAccess(fr, p, cells, write)
	}
	return ctlNext
}

// loadBytes reads a number of type rt from byte off of the cell at p.
func (t *thread) loadBytes(fr *frame, p Pointer, off int64, rt *RType, dst int) ctl {
	if rt.Agg {
		return t.loadStructBytes(fr, p, off, rt, dst) // (unsafeview_struct.go)
	}
	k := numKind(rt.T)
	if basicKindOf(rt.T) == types.Bool {
		k = types.Bool // one byte, as leafValue reads it
	}
	o := t.s.heap.get(p.Obj)
	w := uniformWidth(o)
	if k < 0 || w == 0 {
		return t.unsupported(fr, fmt.Sprintf("memory of %s read as %s (memory reinterpreted through unsafe.Pointer)", o.T, rt))
	}
	n := int(gcSizes.Sizeof(rt.T))
	first, _, cells, ok := memSpan(o, int(p.Off), off, n, w)
	if !ok {
		return t.unsupported(fr, "a read past the end of an object (memory reinterpreted through unsafe.Pointer)")
	}
	if c := t.memAccess(fr, Pointer{Obj: p.Obj, Off: int32(first)}, cells, false); c != ctlNext {
		return c
	}
	bits, ok := memRead(o, int(p.Off), off, n)
	if !ok {
		return t.unsupported(fr, fmt.Sprintf("memory of %s read as %s (memory reinterpreted through unsafe.Pointer)", o.T, rt))
	}
	fr.regs[dst] = leafValue(k, bits)
	return ctlNext
}

// storeBytes writes number v of type rt at byte off of the cell at p.
func (t *thread) storeBytes(fr *frame, p Pointer, off int64, rt *RType, v Value) ctl {
	if rt.Agg {
		return t.storeStructBytes(fr, p, off, rt, v) // (unsafeview_struct.go)
	}
	k := numKind(rt.T)
	if _, ok := v.(bool); ok && basicKindOf(rt.T) == types.Bool {
		k = types.Bool
	} else if numWidth(v) == 0 {
		k = -1
	}
	o := t.s.heap.get(p.Obj)
	w := uniformWidth(o)
	if k < 0 || w == 0 {
		return t.unsupported(fr, fmt.Sprintf("memory of %s written as %s (memory reinterpreted through unsafe.Pointer)", o.T, rt))
	}
	n := int(gcSizes.Sizeof(rt.T))
	first, _, cells, ok := memSpan(o, int(p.Off), off, n, w)
	if !ok {
		return t.unsupported(fr, "a write past the end of an object (memory reinterpreted through unsafe.Pointer)")
	}
	if c := t.memAccess(fr, Pointer{Obj: p.Obj, Off: int32(first)}, cells, true); c != ctlNext {
		return c
	}
	if !memWrite(t.s.heap.mut(p.Obj, t.s.epoch), int(p.Off), off, n, leafBits(v)) {
		return t.unsupported(fr, fmt.Sprintf("memory of %s written as %s (memory reinterpreted through unsafe.Pointer)", o.T, rt))
	}
	return ctlNext
}

// cellByteAt decodes an address inside a number's cell (not at its
// start: pointerAt's) of memory of uniform width.
func (s *State) cellByteAt(a uintptr) (cellByte, bool) {
	if uint64(a) < addrBase {
		return cellByte{}, false
	}
	obj := ObjID((uint64(a) - addrBase) >> addrObjShift)
	off := int64((uint64(a) - addrBase) & (1<<addrObjShift - 1))
	if obj == 0 || obj >= s.heap.next {
		return cellByte{}, false
	}
	o := s.heap.get(obj)
	w := uniformWidth(o)
	if w == 0 || off/int64(w) >= int64(o.numCells()) {
		return cellByte{}, false
	}
	return cellByte{p: Pointer{Obj: obj, Off: int32(off / int64(w))}, k: int(off % int64(w))}, true
}

func (c cellByte) addr(s *State) uintptr { return s.addrOfPointer(c.p) + uintptr(c.k) }

// castCell is the value of the plain cell at p (nil for a view's element
// or a pointer past its object).
func (t *thread) castCell(p Pointer) Value {
	if p.Obj == 0 {
		return nil
	}
	o := t.s.heap.get(p.Obj)
	if o.kind != objCells || int(p.Off) >= o.numCells() {
		return nil
	}
	return o.cell(int(p.Off))
}

// castWidthDiffers reports whether the cell at p holds a number whose
// width differs from rt's, or rt is a bool, which memory of numbers holds
// as a byte (a load or store through a pointer converted from
// unsafe.Pointer that must go to the bytes).
func (t *thread) castWidthDiffers(p Pointer, rt *RType) bool {
	if p.Obj == 0 {
		return false
	}
	o := t.s.heap.get(p.Obj)
	if o.kind == objView {
		return false // its elements are loaded and stored as a view's (loadView)
	}
	if int(p.Off) >= o.numCells() {
		return false
	}
	w := numWidth(o.cell(int(p.Off)))
	return w != 0 && (int64(w) != gcSizes.Sizeof(rt.T) || basicKindOf(rt.T) == types.Bool)
}

// castStore reports whether st stores a number through a pointer converted
// from unsafe.Pointer: *(*uint8)(unsafe.Pointer(p)) = b.
func castStore(st *ssa.Store) bool {
	if castFieldAccess(st.Addr, st.Val.Type()) { // a field of a struct view (unsafeview_struct.go)
		return true
	}
	cv, ok := st.Addr.(*ssa.Convert)
	return ok && basicKindOf(cv.X.Type()) == types.UnsafePointer && numKind(st.Val.Type()) >= 0
}

// castStoreOp is the store of castStore's instructions.
func (c *compiler) castStoreOp(in *ssa.Store) op {
	rt := c.rt(in.Val.Type())
	a, v := c.reg(in.Addr), c.reg(in.Val)
	return func(t *thread, fr *frame) ctl {
		p, ok := fr.regs[a].(Pointer)
		if !ok {
			return t.storeOtherValue(fr, fr.regs[a], rt, fr.regs[v])
		}
		if t.castWidthDiffers(p, rt) {
			return t.storeBytes(fr, p, 0, rt, fr.regs[v])
		}
		val := fr.regs[v]
		if old := t.castCell(p); numWidth(old) != 0 && numWidth(val) != 0 {
			val = withBits(old, numBits(val)) // same width: the cell keeps its own type (an int written as uint64)
		}
		return t.store(fr, p, rt, val, false)
	}
}

// storeOtherValue stores v of type rt through a pointer that is not a
// cell's address: a byte inside a number's cell, or storeOther's.
func (t *thread) storeOtherValue(fr *frame, p Value, rt *RType, v Value) ctl {
	switch x := p.(type) {
	case cellByte:
		return t.storeBytes(fr, x.p, int64(x.k), rt, v)
	case hdrWord:
		return t.storeHdrWord(fr, x, rt, v)
	}
	return t.storeOther(fr, p)
}
