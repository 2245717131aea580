package vm

import "go/types"

// Addresses as numbers (unsafe.Pointer ↔ uintptr).
//
// Memory is cells, not bytes, so a pointer has no address of its own. A
// conversion unsafe.Pointer → uintptr gives the number
//
//	addrBase + Obj<<addrObjShift + the byte offset of the cell in the object
//
// where byte offsets follow the gc compiler's layout on amd64 (the one
// unsafe.Offsetof, unsafe.Sizeof and reflect's StructField.Offset report),
// and the reverse conversion uintptr → unsafe.Pointer decodes it. Pointer
// arithmetic inside one object therefore works as in Go
// (unsafe.Pointer(uintptr(p) + unsafe.Offsetof(s.f)) is &s.f) as long as
// the result is the start of a cell; an address inside a cell (a byte of an
// int, the length word of a string) or outside every object is unsupported.
// Printing a pointer (%p, println) shows the same base and object number
// with the cell offset times 8.

const (
	addrBase     = 0xc000000000
	addrObjShift = 28 // objects up to 256 MiB
)

// addrOfPointer is the number of the address p as the program sees it.
func (s *State) addrOfPointer(p Pointer) uintptr {
	if p.Obj == 0 {
		return uintptr(p.Off) * 8
	}
	o := s.heap.get(p.Obj)
	if o != nil && o.kind == objView && p.Off >= viewHdr { // its memory's address (unsafeview.go)
		return s.viewAddr(o, p)
	}
	var off int64
	if o != nil && o.T != nil && o.hasCells() {
		off = cellByteOffset(o.T, int(p.Off))
	} else {
		off = int64(p.Off) * 8
	}
	return uintptr(addrBase + uint64(p.Obj)<<addrObjShift + uint64(off))
}

// pointerAt decodes a number made by addrOfPointer; ok is false when it
// names no cell.
func (s *State) pointerAt(a uintptr) (Pointer, bool) {
	if a == 0 {
		return Pointer{}, true
	}
	if uint64(a) < addrBase {
		return Pointer{}, false
	}
	obj := ObjID((uint64(a) - addrBase) >> addrObjShift)
	off := int64((uint64(a) - addrBase) & (1<<addrObjShift - 1))
	if obj == 0 || obj >= s.heap.next {
		return Pointer{}, false
	}
	o := s.heap.get(obj)
	if o == nil || o.T == nil || !o.hasCells() {
		return Pointer{}, false
	}
	c, ok := cellAtByteOffset(o.T, off)
	if !ok || c >= o.numCells() {
		return Pointer{}, false
	}
	return Pointer{Obj: obj, Off: int32(c)}, true
}

// cellByteOffset is the byte offset of cell c of an object holding values
// of type rt one after the other (a variable, or a slice's backing store).
func cellByteOffset(rt *RType, c int) int64 {
	if rt.Size == 0 {
		return 0
	}
	n, within := c/rt.Size, c%rt.Size
	return int64(n)*gcSizes.Sizeof(rt.T) + leafByteOffset(rt, within)
}

// leafByteOffset is the byte offset of cell c inside one value of type rt.
func leafByteOffset(rt *RType, c int) int64 {
	switch u := rt.T.Underlying().(type) {
	case *types.Struct:
		offs := gcSizes.Offsetsof(structFields(u))
		for i := len(rt.Fields) - 1; i >= 0; i-- {
			if rt.Fields[i] <= c {
				ft := rt.reg.get(u.Field(i).Type())
				if ft.Size == 0 {
					continue
				}
				return offs[i] + leafByteOffset(ft, c-rt.Fields[i])
			}
		}
	case *types.Array:
		if rt.Elem.Size == 0 {
			return 0
		}
		return int64(c/rt.Elem.Size)*gcSizes.Sizeof(rt.Elem.T) + leafByteOffset(rt.Elem, c%rt.Elem.Size)
	}
	return 0
}

// cellAtByteOffset is the cell that starts at byte off of an object
// holding values of type rt one after the other.
func cellAtByteOffset(rt *RType, off int64) (int, bool) {
	size := gcSizes.Sizeof(rt.T)
	if size == 0 || rt.Size == 0 {
		return 0, off == 0
	}
	c, ok := leafAtByteOffset(rt, off%size)
	return int(off/size)*rt.Size + c, ok
}

func leafAtByteOffset(rt *RType, off int64) (int, bool) {
	switch u := rt.T.Underlying().(type) {
	case *types.Struct:
		offs := gcSizes.Offsetsof(structFields(u))
		for i := u.NumFields() - 1; i >= 0; i-- {
			ft := rt.reg.get(u.Field(i).Type())
			if offs[i] <= off && ft.Size > 0 {
				if off >= offs[i]+gcSizes.Sizeof(ft.T) {
					return 0, false // padding
				}
				c, ok := leafAtByteOffset(ft, off-offs[i])
				return rt.Fields[i] + c, ok
			}
		}
		return 0, false
	case *types.Array:
		es := gcSizes.Sizeof(rt.Elem.T)
		if es == 0 || rt.Elem.Size == 0 {
			return 0, false
		}
		c, ok := leafAtByteOffset(rt.Elem, off%es)
		return int(off/es)*rt.Elem.Size + c, ok
	}
	return 0, off == 0
}

// structFields lists a struct's fields (for types.Sizes.Offsetsof).
func structFields(s *types.Struct) []*types.Var {
	fs := make([]*types.Var, s.NumFields())
	for i := range fs {
		fs[i] = s.Field(i)
	}
	return fs
}
