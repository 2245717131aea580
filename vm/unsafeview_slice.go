package vm

import (
	"fmt"
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// Slices viewing memory of numbers of another width (unsafeview.go):
// the writes of a slice header's words through unsafe.Pointer
// (hdr := (*reflect.SliceHeader)(unsafe.Pointer(&s)); hdr.Len = n;
// hdr.Cap = n; hdr.Data = uintptr(unsafe.Pointer(&b[0]))) set the words
// of the slice held by the cell, and a Data word naming memory of another
// element type makes the slice a view.

// leafRType is the type of the scalar cell c of a value of type rt.
func leafRType(rt *RType, c int) *RType {
	for rt.Agg {
		switch u := rt.T.Underlying().(type) {
		case *types.Struct:
			i := len(rt.Fields) - 1
			for i > 0 && rt.Fields[i] > c {
				i--
			}
			ft := rt.reg.get(u.Field(i).Type())
			c -= rt.Fields[i]
			rt = ft
		case *types.Array:
			if rt.Elem.Size == 0 {
				return rt.Elem
			}
			c %= rt.Elem.Size
			rt = rt.Elem
		default:
			return rt
		}
	}
	return rt
}

// cellRType is the type of the cell at p (a variable's, or a slice
// backing array's element's).
func (s *State) cellRType(p Pointer) *RType {
	o := s.heap.get(p.Obj)
	if o.T == nil || o.T.Size == 0 {
		return nil
	}
	return leafRType(o.T, int(p.Off)%o.T.Size)
}

// storeHdrWord writes the length or capacity word of the slice held by
// the cell w.p (hdr.Len = n).
func (t *thread) storeHdrWord(fr *frame, w hdrWord, rt *RType, v Value) ctl {
	o := t.s.heap.get(w.p.Obj)
	sl, ok := o.cell(int(w.p.Off)).(Slice)
	srt := t.s.cellRType(w.p)
	if !ok || srt == nil || basicKindOf(rt.T) != types.Int {
		return t.storeOther(fr, w)
	}
	n := toInt(v)
	if w.k == 1 {
		sl.Len = n
	} else {
		sl.Cap = n
	}
	return t.store(fr, w.p, srt, sl, true)
}

// hdrDataStore reports whether st writes the Data word of a slice header
// through a header-shaped struct (reflect.SliceHeader and its copies).
func hdrDataStore(st *ssa.Store) bool {
	fa, ok := st.Addr.(*ssa.FieldAddr)
	if !ok || fa.Field != 0 {
		return false
	}
	pt, ok := fa.X.Type().Underlying().(*types.Pointer)
	if !ok {
		return false
	}
	sst, ok := pt.Elem().Underlying().(*types.Struct)
	return ok && sst.NumFields() == 3 && headerShaped(sst)
}

// hdrDataStoreOp is the store of hdrDataStore's instructions: into a cell
// holding a slice, it sets the slice's data (setSliceData); into a header
// variable, it is a plain store.
func (c *compiler) hdrDataStoreOp(in *ssa.Store) op {
	rt := c.rt(in.Val.Type())
	a, v := c.reg(in.Addr), c.reg(in.Val)
	return func(t *thread, fr *frame) ctl {
		p, ok := fr.regs[a].(Pointer)
		if !ok {
			return t.storeOtherValue(fr, fr.regs[a], rt, fr.regs[v])
		}
		if p.Obj != 0 {
			o := t.s.heap.get(p.Obj)
			if int(p.Off) < o.numCells() {
				if sl, ok := o.cell(int(p.Off)).(Slice); ok && o.kind == objCells {
					return t.setSliceData(fr, p, sl, fr.regs[v])
				}
			}
		}
		return t.store(fr, p, rt, fr.regs[v], false)
	}
}

// setSliceData stores into the cell at p (holding sl) the slice with sl's
// length and capacity over the memory data names (a uintptr or an
// unsafe.Pointer).
func (t *thread) setSliceData(fr *frame, p Pointer, sl Slice, data Value) ctl {
	srt := t.s.cellRType(p)
	st, ok := srt.T.Underlying().(*types.Slice)
	if !ok {
		return t.unsupported(fr, fmt.Sprintf("a slice header's Data word written into a cell of %s", srt))
	}
	elem := t.m.types.get(st.Elem())
	target := data
	if a, ok := data.(uintptr); ok {
		if a == 0 {
			return t.store(fr, p, srt, Slice{Len: sl.Len, Cap: sl.Cap}, true)
		}
		target = t.pointerOfAddr(a)
	}
	var ns Slice
	switch x := target.(type) {
	case Pointer:
		if x.Obj == 0 {
			ns = Slice{Len: sl.Len, Cap: sl.Cap}
			break
		}
		qo := t.s.heap.get(x.Obj)
		if qo.kind == objView {
			base, off := viewByte(qo, x)
			v, why := t.makeView(base, off, elem, sl.Len, sl.Cap)
			if why != "" {
				return t.unsupported(fr, why)
			}
			ns = v
			break
		}
		if t.s.cellRType(x) == elem || elem.Size == 0 {
			ns = Slice{Obj: x.Obj, Off: x.Off, Len: sl.Len, Cap: sl.Cap}
			break
		}
		v, why := t.makeView(x, 0, elem, sl.Len, sl.Cap)
		if why != "" {
			return t.unsupported(fr, why)
		}
		ns = v
	case strPtr:
		// a []byte over a string's bytes (buger/jsonparser's
		// StringToBytes sets Data first, then Cap and Len): a copy of the
		// bytes from there to the end of the string's backing array, so
		// that the Cap and Len stores that follow find them (writing
		// through the slice is undefined in Go; reading sees the bytes)
		if basicKindOf(elem.T) != types.Byte {
			return t.unsupported(fr, fmt.Sprintf("a string's bytes read as []%s (memory reinterpreted through unsafe.Pointer)", elem))
		}
		rest, ok := t.m.strRest(x)
		if !ok || sl.Cap > len(rest) {
			return t.unsupported(fr, "a read past the bytes of a string (memory reinterpreted through unsafe.Pointer)")
		}
		bs := t.newBytes([]byte(rest))
		ns = Slice{Obj: bs.Obj, Off: bs.Off, Len: sl.Len, Cap: sl.Cap}
	case cellByte:
		v, why := t.makeView(x.p, int64(x.k), elem, sl.Len, sl.Cap)
		if why != "" {
			return t.unsupported(fr, why)
		}
		ns = v
	default:
		return t.unsupported(fr, fmt.Sprintf("a slice header's Data word set to %s (memory reinterpreted through unsafe.Pointer)", describePtr(target)))
	}
	return t.store(fr, p, srt, ns, true)
}

func describePtr(v Value) string {
	switch x := v.(type) {
	case strPtr:
		return "a string's bytes"
	case wildPtr:
		return fmt.Sprintf("address 0x%x, which names no variable", x.a)
	}
	return fmt.Sprintf("%T", v)
}

// makeView is a slice of elem over the memory at byte off of the cell at
// base, or why there is none.
func (t *thread) makeView(base Pointer, off int64, elem *RType, n, c int) (Slice, string) {
	bo := t.s.heap.get(base.Obj)
	if numKind(elem.T) < 0 || uniformWidth(bo) == 0 {
		return Slice{}, fmt.Sprintf("a slice of %s over memory of %s (memory reinterpreted through unsafe.Pointer)", elem, bo.T)
	}
	o := &Object{kind: objView, T: elem, Cells: []Value{base, int(off)}}
	id := t.newObject(o)
	return Slice{Obj: id, Off: viewHdr, Len: n, Cap: c}, ""
}

// unsafeSliceView is unsafe.Slice over memory of numbers of another width
// (the bytes from off of the cell at base): a view of n elem, all of them
// inside the memory.
func (t *thread) unsafeSliceView(fr *frame, base Pointer, off int64, elem *RType, n, dst int) ctl {
	bo := t.s.heap.get(base.Obj)
	w := int64(uniformWidth(bo))
	if end := int64(base.Off)*w + off + int64(n)*gcSizes.Sizeof(elem.T); w > 0 && end > int64(bo.numCells())*w {
		return t.unsupported(fr, "unsafe.Slice beyond the end of the object")
	}
	v, why := t.makeView(base, off, elem, n, n)
	if why != "" {
		return t.unsupported(fr, why)
	}
	if dst >= 0 {
		fr.regs[dst] = v
	}
	return ctlNext
}

// viewByte is the memory a pointer into view o names: the memory's
// first cell and the byte offset from it.
func viewByte(o *Object, p Pointer) (Pointer, int64) {
	base := o.cell(0).(Pointer)
	off := int64(o.cell(1).(int)) + int64(p.Off-viewHdr)*gcSizes.Sizeof(o.T.T)
	return base, off
}

// loadView loads an element of a view.
func (t *thread) loadView(fr *frame, o *Object, p Pointer, rt *RType, dst int) ctl {
	if p.Off < viewHdr {
		return t.unsupported(fr, "a load from a view's header (memory reinterpreted through unsafe.Pointer)")
	}
	base, off := viewByte(o, p)
	if elem := t.numArrayElem(rt); elem != nil { // *(*[2]uint32)(unsafe.Pointer(&view[i]))
		return t.loadCastArray(fr, base, off, rt, elem, dst)
	}
	return t.loadBytes(fr, base, off, rt, dst)
}

// storeView stores an element of a view.
func (t *thread) storeView(fr *frame, o *Object, p Pointer, rt *RType, v Value) ctl {
	if p.Off < viewHdr {
		return t.unsupported(fr, "a store to a view's header (memory reinterpreted through unsafe.Pointer)")
	}
	base, off := viewByte(o, p)
	if elem := t.numArrayElem(rt); elem != nil {
		return t.storeCastArray(fr, base, off, rt, elem, v)
	}
	return t.storeBytes(fr, base, off, rt, v)
}

// viewLoad is loadView for reflect (a fmt of a view's elements): the number
// of type rt element p of view o holds; a view's header or memory that
// does not hold numbers stops the run at the VM's limit.
func (s *State) viewLoad(o *Object, p Pointer, rt *RType) Value {
	k := numKind(rt.T)
	if p.Off < viewHdr || k < 0 {
		panic(vmLimit(fmt.Sprintf("a reflect read of %s in a view (memory reinterpreted through unsafe.Pointer)", rt)))
	}
	base, off := viewByte(o, p)
	bits, ok := memRead(s.heap.get(base.Obj), int(base.Off), off, int(gcSizes.Sizeof(rt.T)))
	if !ok {
		panic(vmLimit("a view's element past its memory (memory reinterpreted through unsafe.Pointer)"))
	}
	return kindBits(k, bits)
}

// viewStore is storeView for reflect: number x of type rt written to
// element p of view o.
func (s *State) viewStore(o *Object, p Pointer, rt *RType, x Value) {
	if p.Off < viewHdr || numKind(rt.T) < 0 || numWidth(x) == 0 {
		panic(vmLimit(fmt.Sprintf("a reflect write of %s in a view (memory reinterpreted through unsafe.Pointer)", rt)))
	}
	base, off := viewByte(o, p)
	if !memWrite(s.heap.mut(base.Obj, s.epoch), int(base.Off), off, int(gcSizes.Sizeof(rt.T)), numBits(x)) {
		panic(vmLimit("a view's element past its memory (memory reinterpreted through unsafe.Pointer)"))
	}
}

// viewCells is a copy of the elements of view slice sl (sliceCells' for a
// view): the numbers its memory holds.
func (s *State) viewCells(o *Object, sl Slice) []Value {
	k := numKind(o.T.T)
	n := int(gcSizes.Sizeof(o.T.T))
	cells := make([]Value, sl.Len)
	for i := range cells {
		base, off := viewByte(o, Pointer{Obj: sl.Obj, Off: sl.Off + int32(i)})
		bits, ok := memRead(s.heap.get(base.Obj), int(base.Off), off, n)
		if !ok {
			panic(vmLimit("a view's element past its memory (memory reinterpreted through unsafe.Pointer)"))
		}
		cells[i] = kindBits(k, bits)
	}
	return cells
}

// copyToView is copyCells into a view: each element written to its memory.
func (t *thread) copyToView(dst Slice, src []Value) int {
	o := t.s.heap.get(dst.Obj)
	n := min(dst.Len, len(src))
	w := int(gcSizes.Sizeof(o.T.T))
	tmp := append([]Value(nil), src[:n]...)
	for i, v := range tmp {
		base, off := viewByte(o, Pointer{Obj: dst.Obj, Off: dst.Off + int32(i)})
		if numWidth(v) == 0 || !memWrite(t.s.heap.mut(base.Obj, t.s.epoch), int(base.Off), off, w, numBits(v)) {
			panic(vmLimit("a view's element past its memory (memory reinterpreted through unsafe.Pointer)"))
		}
	}
	return n
}

// viewAddr is the number of the address of p inside view o: its memory's.
func (s *State) viewAddr(o *Object, p Pointer) uintptr {
	base, off := viewByte(o, p)
	return s.addrOfPointer(base) + uintptr(off)
}
