package vm

import (
	"fmt"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// Struct views of number memory: the fields of a struct read and written
// through a pointer to a buffer of numbers converted from unsafe.Pointer.
// coocood/freecache keeps each entry's header in its ring buffer of bytes
// so: hdr := (*entryHdr)(unsafe.Pointer(&hdrBuf[0])); hdr.keyLen = ...;
// then copies the 24 bytes in. A cell holds one number, so the field's
// cell offset (its place in the struct's cells) is not where the field is
// in such memory: a field of the view is at its byte offset (the gc
// layout, gcSizes), read and written as the bytes it covers (loadBytes,
// storeBytes), a bool as one byte. Only a field address taken directly
// from the conversion, and the loads and stores through it, are compiled
// so (structViewConv); a view passed on to other code is read as cells.

// structViewConv reports whether v converts an unsafe.Pointer to a
// pointer to a struct of numbers (flatNumbers) that only this function
// uses, for its fields' addresses and to load or store the whole struct:
// a view whose every access is compiled as one. A pointer passed on or
// kept is read as cells everywhere, as before (its accesses elsewhere
// could not be told from a plain struct's).
func structViewConv(v ssa.Value) (*types.Struct, bool) {
	cv, ok := v.(*ssa.Convert)
	if !ok || basicKindOf(cv.X.Type()) != types.UnsafePointer {
		return nil, false
	}
	pt, ok := cv.Type().Underlying().(*types.Pointer)
	if !ok {
		return nil, false
	}
	st, ok := pt.Elem().Underlying().(*types.Struct)
	if !ok || !flatNumbers(st) {
		return nil, false
	}
	for _, r := range *cv.Referrers() {
		switch x := r.(type) {
		case *ssa.FieldAddr, *ssa.DebugRef:
		case *ssa.UnOp:
			if x.Op != token.MUL {
				return nil, false
			}
		case *ssa.Store:
			if x.Val == cv {
				return nil, false
			}
		default:
			return nil, false
		}
	}
	return st, true
}

// castField reports whether fa takes the address of a field of a struct
// view (structViewConv), and the field's byte offset in the struct.
func castField(fa *ssa.FieldAddr) (int64, bool) {
	st, ok := structViewConv(fa.X)
	if !ok {
		return 0, false
	}
	return gcSizes.Offsetsof(structFields(st))[fa.Field], true
}

// flatNumbers reports whether every field of st is a number other than
// a uintptr, or a bool: a struct with words of addresses (a slice's or a
// string's header, an interface's words) is another kind of view
// (unsafestr.go, unsafeiface.go, unsafeview_slice.go), and a field that is
// a struct or an array would be reached through addresses this view does
// not compile.
func flatNumbers(st *types.Struct) bool {
	for i := 0; i < st.NumFields(); i++ {
		t := st.Field(i).Type()
		k := basicKindOf(t)
		if k != types.Bool && (numKind(t) < 0 || k == types.Uintptr) {
			return false
		}
	}
	return true
}

// castFieldAccess reports whether addr is a castField address and the
// value loaded or stored through it a number or a bool.
func castFieldAccess(addr ssa.Value, t types.Type) bool {
	fa, ok := addr.(*ssa.FieldAddr)
	if !ok {
		return false
	}
	if _, ok := castField(fa); !ok {
		return false
	}
	return numKind(t) >= 0 || basicKindOf(t) == types.Bool
}

// cellWidth is the width of every number cell of struct type st (its
// fields, nested, all numbers of one width), 0 when they are not.
func cellWidth(st types.Type) int {
	w := 0
	ok := eachLeaf(st, 0, func(leaf types.Type, _ int64) bool {
		n := int(gcSizes.Sizeof(leaf))
		if numKind(leaf) < 0 || w != 0 && w != n {
			return false
		}
		w = n
		return true
	})
	if !ok {
		return 0
	}
	return w
}

// eachLeaf calls f on each leaf of type t (what is not a struct or an
// array) with its byte offset in t plus base (the gc layout), in the order
// of their cells, until f returns false; it reports whether f never did
// and t has at most maxViewLeaves leaves.
func eachLeaf(t types.Type, base int64, f func(leaf types.Type, off int64) bool) bool {
	n := 0
	var walk func(t types.Type, base int64) bool
	walk = func(t types.Type, base int64) bool {
		switch u := t.Underlying().(type) {
		case *types.Struct:
			fields := structFields(u)
			offs := gcSizes.Offsetsof(fields)
			for i, fv := range fields {
				if !walk(fv.Type(), base+offs[i]) {
					return false
				}
			}
			return true
		case *types.Array:
			es := gcSizes.Sizeof(u.Elem())
			for i := int64(0); i < u.Len(); i++ {
				if !walk(u.Elem(), base+i*es) {
					return false
				}
			}
			return true
		}
		n++
		return n <= maxViewLeaves && f(t, base)
	}
	return walk(t, base)
}

// castFieldAddrOp is the FieldAddr of a castField: over memory of numbers
// of a width the struct's cells do not all have, the address of the
// field's first byte (a cell, or a cellByte inside one); else the field's
// cell, as any FieldAddr.
func (c *compiler) castFieldAddrOp(in *ssa.FieldAddr, byteOff int64) op {
	st := c.rt(in.X.Type().Underlying().(*types.Pointer).Elem())
	off := int32(st.Fields[in.Field])
	sw := cellWidth(st.T)
	x, dst := c.reg(in.X), c.reg(in)
	return func(t *thread, fr *frame) ctl {
		var base Pointer
		k := int64(0)
		switch p := fr.regs[x].(type) {
		case Pointer:
			base = p
		case cellByte:
			base, k = p.p, int64(p.k)
		default:
			return t.unsupported(fr, fmt.Sprintf("a field of %T", p))
		}
		if base.Obj == 0 {
			return t.runtimePanic(fr, "invalid memory address or nil pointer dereference")
		}
		w := uniformWidth(t.s.heap.get(base.Obj))
		if w == 0 || w == sw && k == 0 {
			if k != 0 {
				return t.unsupported(fr, "a field of a struct inside a number's cell (memory reinterpreted through unsafe.Pointer)")
			}
			fr.regs[dst] = Pointer{Obj: base.Obj, Off: base.Off + off}
			return ctlNext
		}
		at := k + byteOff
		cell := Pointer{Obj: base.Obj, Off: base.Off + int32(at/int64(w))}
		if at%int64(w) == 0 {
			fr.regs[dst] = cell
		} else {
			fr.regs[dst] = cellByte{cell, int(at % int64(w))}
		}
		return ctlNext
	}
}

// castFieldLoadOp is a load through a castField address: the bytes of the
// number memory it points into when the field's type is not the cell's
// (another width, or a bool over a number), else the cell.
func (c *compiler) castFieldLoadOp(in *ssa.UnOp) op {
	rt := c.rt(in.Type())
	x, dst := c.reg(in.X), c.reg(in)
	k := basicKindOf(in.Type())
	return func(t *thread, fr *frame) ctl {
		p, ok := fr.regs[x].(Pointer)
		if !ok {
			return t.loadOther(fr, fr.regs[x], rt, dst)
		}
		if t.castWidthDiffers(p, rt) {
			return t.loadBytes(fr, p, 0, rt, dst)
		}
		if c := t.load(fr, p, rt, dst); c != ctlNext {
			return c
		}
		if k != types.Bool {
			fr.regs[dst] = reinterpretNumber(fr.regs[dst], k)
		}
		return ctlNext
	}
}

// A whole struct loaded or stored through such a pointer (return *hdr;
// *hdr = entryHdr{...}) is read or written leaf by leaf at the leaves'
// byte offsets (structView).

// viewLeaf is a number or bool leaf of a struct: its byte offset in the
// struct (gc layout), basic kind and size.
type viewLeaf struct {
	off  int64
	kind types.BasicKind
	size int
}

// structView is a struct type's layout as memory: the width its cells
// share (cellWidth; 0: none), and its leaves, one per cell, when they are
// all numbers or bools (ok).
type structView struct {
	width  int
	leaves []viewLeaf
	ok     bool
}

// maxViewLeaves bounds the leaves of a struct read or written as memory.
const maxViewLeaves = 4096

// viewOf returns rt's structView (rt a struct), made once.
func (rt *RType) viewOf() *structView {
	rt.viewOnce.Do(func() { rt.view = newStructView(rt.T) })
	return rt.view
}

func newStructView(t types.Type) *structView {
	v := &structView{width: cellWidth(t)}
	v.ok = eachLeaf(t, 0, func(leaf types.Type, off int64) bool {
		k := basicKindOf(leaf)
		if numKind(leaf) < 0 && k != types.Bool {
			return false
		}
		v.leaves = append(v.leaves, viewLeaf{off, k, int(gcSizes.Sizeof(leaf))})
		return true
	})
	return v
}

// castStruct reports whether a load or store of struct type rt at p goes
// to the bytes of the memory of numbers p points into: the memory's
// width is not the one the struct's cells share.
func (t *thread) castStruct(p Pointer, rt *RType) bool {
	if p.Obj == 0 {
		return false
	}
	w := uniformWidth(t.s.heap.get(p.Obj))
	return w != 0 && w != rt.viewOf().width
}

// castStructLoadOp is the load of a whole struct view (*hdr).
func (c *compiler) castStructLoadOp(in *ssa.UnOp) op {
	rt := c.rt(in.Type())
	x, dst := c.reg(in.X), c.reg(in)
	return func(t *thread, fr *frame) ctl {
		switch p := fr.regs[x].(type) {
		case Pointer:
			if t.castStruct(p, rt) {
				return t.loadStructBytes(fr, p, 0, rt, dst)
			}
			return t.load(fr, p, rt, dst)
		case cellByte:
			return t.loadStructBytes(fr, p.p, int64(p.k), rt, dst)
		}
		return t.loadOther(fr, fr.regs[x], rt, dst)
	}
}

// castStructStoreOp is the store of a whole struct view (*hdr = v).
func (c *compiler) castStructStoreOp(in *ssa.Store) op {
	rt := c.rt(in.Val.Type())
	a, v := c.reg(in.Addr), c.reg(in.Val)
	return func(t *thread, fr *frame) ctl {
		switch p := fr.regs[a].(type) {
		case Pointer:
			if t.castStruct(p, rt) {
				return t.storeStructBytes(fr, p, 0, rt, fr.regs[v])
			}
			return t.store(fr, p, rt, fr.regs[v], false)
		case cellByte:
			return t.storeStructBytes(fr, p.p, int64(p.k), rt, fr.regs[v])
		}
		return t.storeOtherValue(fr, fr.regs[a], rt, fr.regs[v])
	}
}

// structSpan checks that a struct of type rt at byte off of the cell at
// p lies in memory of numbers (every leaf a number or bool) and makes the
// access's scheduling point and race check; ok is false with the ctl to
// return.
func (t *thread) structSpan(fr *frame, p Pointer, off int64, rt *RType, write bool) (*structView, ctl, bool) {
	o := t.s.heap.get(p.Obj)
	v, w := rt.viewOf(), uniformWidth(o)
	if !v.ok || w == 0 {
		verb := "read"
		if write {
			verb = "written"
		}
		return nil, t.unsupported(fr, fmt.Sprintf("memory of %s %s as %s (memory reinterpreted through unsafe.Pointer)", o.T, verb, rt)), false
	}
	first, _, cells, ok := memSpan(o, int(p.Off), off, int(gcSizes.Sizeof(rt.T)), w)
	if !ok {
		return nil, t.unsupported(fr, "an access past the end of an object (memory reinterpreted through unsafe.Pointer)"), false
	}
	if c := t.memAccess(fr, Pointer{Obj: p.Obj, Off: int32(first)}, cells, write); c != ctlNext {
		return nil, c, false
	}
	return v, ctlNext, true
}

// loadStructBytes reads a struct of type rt from byte off of the cell at p
// of memory of numbers, leaf by leaf.
func (t *thread) loadStructBytes(fr *frame, p Pointer, off int64, rt *RType, dst int) ctl {
	v, c, ok := t.structSpan(fr, p, off, rt, false)
	if !ok {
		return c
	}
	o := t.s.heap.get(p.Obj)
	vals := make([]Value, len(v.leaves))
	for i, l := range v.leaves {
		bits, ok := memRead(o, int(p.Off), off+l.off, l.size)
		if !ok {
			return t.unsupported(fr, fmt.Sprintf("memory of %s read as %s (memory reinterpreted through unsafe.Pointer)", o.T, rt))
		}
		vals[i] = leafValue(l.kind, bits)
	}
	fr.regs[dst] = vals
	return ctlNext
}

// storeStructBytes writes struct value val of type rt at byte off of the
// cell at p of memory of numbers, leaf by leaf.
func (t *thread) storeStructBytes(fr *frame, p Pointer, off int64, rt *RType, val Value) ctl {
	vals, isAgg := val.([]Value)
	if !isAgg || len(vals) != len(rt.viewOf().leaves) {
		return t.unsupported(fr, fmt.Sprintf("a %T written as %s (memory reinterpreted through unsafe.Pointer)", val, rt))
	}
	v, c, ok := t.structSpan(fr, p, off, rt, true)
	if !ok {
		return c
	}
	mo := t.s.heap.mut(p.Obj, t.s.epoch)
	for i, l := range v.leaves {
		if !memWrite(mo, int(p.Off), off+l.off, l.size, leafBits(vals[i])) {
			return t.unsupported(fr, fmt.Sprintf("memory of %s written as %s (memory reinterpreted through unsafe.Pointer)", mo.T, rt))
		}
	}
	return ctlNext
}

// leafValue is the value of kind k (a number kind or Bool) with bits.
func leafValue(k types.BasicKind, bits uint64) Value {
	if k == types.Bool {
		return bits&0xff != 0
	}
	return kindBits(k, bits)
}

// leafBits is the bits of a number or bool value as memory holds them.
func leafBits(v Value) uint64 {
	if b, ok := v.(bool); ok {
		if b {
			return 1
		}
		return 0
	}
	return numBits(v)
}
