package vm

import "fmt"

// Slices' backing arrays: made, read, appended to and copied into, as
// cells or packed numbers (packed.go).

// makeSlice allocates a backing array of cap elements of type elem.
func (t *thread) makeSlice(elem *RType, length, capacity int) Slice {
	if o := packedObject(elem, capacity*elem.Size); o != nil {
		return Slice{Obj: t.newObject(o), Len: length, Cap: capacity}
	}
	if capacity*elem.Size > maxObjectCells {
		panic(vmLimit(fmt.Sprintf("an allocation of %d elements of %s (more than the VM's %d cells for one object)", capacity, elem, maxObjectCells)))
	}
	cells := make([]Value, capacity*elem.Size)
	if elem.Agg {
		z := elem.Zero().([]Value)
		for i := 0; i < capacity; i++ {
			copy(cells[i*elem.Size:], z)
		}
	} else {
		for i := range cells {
			cells[i] = elem.Zero()
		}
	}
	id := t.newObject(&Object{T: elem, Cells: cells})
	return Slice{Obj: id, Len: length, Cap: capacity}
}

// sliceElems returns the cells of a slice's elements (read-only view).
func (s *State) sliceCells(sl Slice, elem *RType) []Value {
	if sl.Obj == 0 || sl.Len == 0 {
		return nil
	}
	o := s.heap.get(sl.Obj)
	if o.kind == objView {
		return s.viewCells(o, sl)
	}
	return o.cellRange(int(sl.Off), int(sl.Off)+sl.Len*elem.Size)
}

// bytesOf returns the contents of a []byte.
func (s *State) bytesOf(sl Slice) []byte {
	if sl.Obj != 0 && sl.Len > 0 {
		if o := s.heap.get(sl.Obj); o.pk != nil && o.pk.k == pkUint8 {
			b := make([]byte, sl.Len)
			o.pk.readBytes(int(sl.Off), b)
			return b
		}
	}
	cells := s.sliceCells(sl, nil8)
	b := make([]byte, len(cells))
	for i, c := range cells {
		b[i] = c.(uint8)
	}
	return b
}

// nil8 is a placeholder element type of size 1 for byte slices.
var nil8 = &RType{Size: 1}

// newBytes makes a []byte holding b.
func (t *thread) newBytes(b []byte) Slice {
	if o := packedObject(t.m.byteType(), len(b)); o != nil {
		o.pk.writeBytes(0, b, t.s.epoch)
		return Slice{Obj: t.newObject(o), Len: len(b), Cap: len(b)}
	}
	cells := make([]Value, len(b))
	for i, c := range b {
		cells[i] = c
	}
	id := t.newObject(&Object{T: t.m.byteType(), Cells: cells})
	return Slice{Obj: id, Len: len(b), Cap: len(b)}
}

// newRunes makes a []rune holding rs.
func (t *thread) newRunes(rs []rune) Slice {
	if len(rs) >= packMin {
		vals := make([]Value, len(rs))
		for i, r := range rs {
			vals[i] = int32(r)
		}
		return t.newSliceOf(t.m.runeType(), vals)
	}
	cells := make([]Value, len(rs))
	for i, c := range rs {
		cells[i] = int32(c)
	}
	id := t.newObject(&Object{T: t.m.runeType(), Cells: cells})
	return Slice{Obj: id, Len: len(rs), Cap: len(rs)}
}

// newSliceOf makes a slice of elem holding vals (one Value per element).
func (t *thread) newSliceOf(elem *RType, vals []Value) Slice {
	sl := t.makeSlice(elem, len(vals), len(vals))
	o := t.s.heap.mut(sl.Obj, t.s.epoch)
	for i, v := range vals {
		if elem.Agg {
			o.setCells(i*elem.Size, v.([]Value))
		} else {
			o.setCell(i, v)
		}
	}
	return sl
}

// sliceElem returns element i of a slice.
func (s *State) sliceElem(sl Slice, elem *RType, i int) Value {
	return s.readCells(Pointer{Obj: sl.Obj, Off: sl.Off + int32(i*elem.Size)}, elem)
}

// appendSlice implements append(sl, vals...) with Go's growth rule.
func (t *thread) appendSlice(sl Slice, elem *RType, vals []Value) Slice {
	n := len(vals)
	if n == 0 {
		return sl
	}
	if sl.Len+n <= sl.Cap {
		o := t.s.heap.mut(sl.Obj, t.s.epoch)
		base := int(sl.Off) + sl.Len*elem.Size
		for i, v := range vals {
			if elem.Agg {
				o.setCells(base+i*elem.Size, v.([]Value))
			} else {
				o.setCell(base+i, v)
			}
		}
		sl.Len += n
		return sl
	}
	newCap := growCap(sl.Cap, sl.Len+n, elem.byteSize(), !elem.hasPointers())
	ns := t.makeSlice(elem, sl.Len+n, newCap)
	o := t.s.heap.mut(ns.Obj, t.s.epoch)
	if sl.Len > 0 {
		t.s.copyInto(o, 0, sl, elem)
	}
	base := sl.Len * elem.Size
	for i, v := range vals {
		if elem.Agg {
			o.setCells(base+i*elem.Size, v.([]Value))
		} else {
			o.setCell(base+i, v)
		}
	}
	return ns
}

// copySlice implements copy(dst, src) for cells of type elem.
func (t *thread) copyCells(dst Slice, src []Value, elem *RType) int {
	n := dst.Len
	if m := len(src) / max(elem.Size, 1); m < n {
		n = m
	}
	if elem.Size == 0 {
		return min(dst.Len, len(src))
	}
	if n == 0 {
		return 0
	}
	if t.s.heap.get(dst.Obj).kind == objView {
		return t.copyToView(dst, src[:n*elem.Size])
	}
	tmp := append([]Value(nil), src[:n*elem.Size]...)
	o := t.s.heap.mut(dst.Obj, t.s.epoch)
	o.setCells(int(dst.Off), tmp)
	return n
}

// copyInto copies the elements of slice src into mutable object o from
// cell at, bytes to bytes when both are packed alike.
func (s *State) copyInto(o *Object, at int, src Slice, elem *RType) {
	if so := s.heap.get(src.Obj); o.pk != nil && so.pk != nil && so.pk.k == o.pk.k {
		o.pk.copyFrom(at, so.pk, int(src.Off), src.Len*elem.Size, o.epoch)
		return
	}
	o.setCells(at, s.sliceCells(src, elem))
}

func boundsMsg(i, n int) string {
	return fmt.Sprintf("index out of range [%d] with length %d", i, n)
}

// copyPacked is copy(dst, src) when dst is packed and src is a string or a
// slice packed alike: bytes copied as bytes. ok is false otherwise.
func (t *thread) copyPacked(dst Slice, src Value, elem *RType) (n int, ok bool) {
	if dst.Obj == 0 || dst.Len == 0 || elem.Size == 0 {
		return 0, false
	}
	do := t.s.heap.get(dst.Obj)
	if do.pk == nil {
		return 0, false
	}
	switch x := src.(type) {
	case string:
		if do.pk.k != pkUint8 {
			return 0, false
		}
		n = min(dst.Len, len(x))
		if n > 0 {
			t.s.heap.mut(dst.Obj, t.s.epoch).pk.writeBytes(int(dst.Off), []byte(x[:n]), t.s.epoch)
		}
		return n, true
	case Slice:
		n = min(dst.Len, x.Len)
		if n == 0 {
			return 0, true
		}
		so := t.s.heap.get(x.Obj)
		if so.pk == nil || so.pk.k != do.pk.k {
			return 0, false
		}
		mo := t.s.heap.mut(dst.Obj, t.s.epoch)
		so = t.s.heap.get(x.Obj) // (the same object as mo when they overlap)
		mo.pk.copyFrom(int(dst.Off), so.pk, int(x.Off), n*elem.Size, t.s.epoch)
		return n, true
	}
	return 0, false
}
