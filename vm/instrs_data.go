package vm

import (
	"fmt"
	"go/types"
	"unicode/utf8"

	"golang.org/x/tools/go/ssa"
)

// The instructions that move data between values of different shapes:
// conversions (convert, dynConvert, SliceToArrayPointer), indexing (Index,
// IndexAddr, Lookup), iteration (Range, Next), slicing and type assertions.
// The core instructions (Alloc, loads and stores, calls, control flow) are
// in instrs_core.go.

func (c *compiler) convert(xv ssa.Value, to types.Type, dst int) op {
	x := c.reg(xv)
	from := xv.Type()
	fu, tu := from.Underlying(), to.Underlying()
	fb, fok := fu.(*types.Basic)
	tb, tok := tu.(*types.Basic)
	switch {
	case fok && tok:
		fk, tk := fb.Kind(), tb.Kind()
		if fk == types.UnsafePointer && tk == types.Uintptr {
			// an address as a number (unsafeptr.go)
			return func(t *thread, fr *frame) ctl {
				p, ok := fr.regs[x].(Pointer)
				if !ok {
					switch y := fr.regs[x].(type) {
					case strPtr:
						fr.regs[dst] = y.addr()
						return ctlNext
					case wildPtr:
						fr.regs[dst] = y.a
						return ctlNext
					case cellByte:
						fr.regs[dst] = y.addr(t.s)
						return ctlNext
					}
					fr.regs[dst] = uintptr(addrOf(fr.regs[x]))
					return ctlNext
				}
				fr.regs[dst] = t.s.addrOfPointer(p)
				return ctlNext
			}
		}
		if fk == types.Uintptr && tk == types.UnsafePointer {
			return func(t *thread, fr *frame) ctl {
				a := fr.regs[x]
				if isSym(a) {
					return t.unsupported(fr, "conversion of a symbolic uintptr to unsafe.Pointer")
				}
				fr.regs[dst] = t.pointerOfAddr(uintptr(toUint64(a)))
				return ctlNext
			}
		}
		if fk == types.UnsafePointer && tk != types.UnsafePointer || tk == types.UnsafePointer && fk != types.UnsafePointer {
			break
		}
		return func(t *thread, fr *frame) ctl {
			a := fr.regs[x]
			if t.s.data != nil && isSym(a) {
				return t.symConvert(fr, a, fk, tk, dst)
			}
			v, ok := convertBasic(a, fk, tk)
			if !ok {
				return t.unsupported(fr, fmt.Sprintf("conversion from %s to %s", from, to))
			}
			fr.regs[dst] = v
			return ctlNext
		}
	case fok && fb.Info()&types.IsString != 0:
		if s, ok := tu.(*types.Slice); ok {
			if basicKindOf(s.Elem()) == types.Byte {
				return func(t *thread, fr *frame) ctl {
					fr.regs[dst] = t.newBytes([]byte(fr.regs[x].(string)))
					return ctlNext
				}
			}
			return func(t *thread, fr *frame) ctl {
				fr.regs[dst] = t.newRunes([]rune(fr.regs[x].(string)))
				return ctlNext
			}
		}
	case tok && tb.Info()&types.IsString != 0:
		if s, ok := fu.(*types.Slice); ok {
			elem := c.rt(s.Elem())
			if basicKindOf(s.Elem()) == types.Byte {
				return func(t *thread, fr *frame) ctl {
					sl := fr.regs[x].(Slice)
					t.raceSlice(fr, sl, elem, sl.Len, false)
					fr.regs[dst] = string(t.s.bytesOf(sl))
					return ctlNext
				}
			}
			return func(t *thread, fr *frame) ctl {
				sl := fr.regs[x].(Slice)
				t.raceSlice(fr, sl, elem, sl.Len, false)
				fr.regs[dst] = stringFromRunes(t.s.sliceCells(sl, elem))
				return ctlNext
			}
		}
	case isPointerLike(fu) && isPointerLike(tu):
		return func(t *thread, fr *frame) ctl {
			fr.regs[dst] = fr.regs[x]
			return ctlNext
		}
	}
	if _, ok := tu.(*types.Array); ok {
		if _, ok := fu.(*types.Slice); ok { // [N]T(s)
			at := c.rt(to)
			return func(t *thread, fr *frame) ctl {
				sl := fr.regs[x].(Slice)
				if sl.Len < at.Len {
					return t.runtimePanic(fr, fmt.Sprintf("cannot convert slice with length %d to array or pointer to array with length %d", sl.Len, at.Len))
				}
				if at.Size == 0 {
					fr.regs[dst] = []Value{}
					return ctlNext
				}
				fr.regs[dst] = t.s.readCells(Pointer{Obj: sl.Obj, Off: sl.Off}, at)
				return ctlNext
			}
		}
	}
	if _, ok := tu.(*types.TypeParam); ok {
		return c.dynConvert(x, to, dst)
	}
	if _, ok := fu.(*types.TypeParam); ok {
		return c.dynConvert(x, to, dst)
	}
	return func(t *thread, fr *frame) ctl {
		return t.unsupported(fr, fmt.Sprintf("conversion from %s to %s", from, to))
	}
}

// dynConvert converts a value whose type is only known at run time
// (MultiConvert over a type set): it decides by the value's Go type.
func (c *compiler) dynConvert(x int, to types.Type, dst int) op {
	return func(t *thread, fr *frame) ctl {
		return t.unsupported(fr, "conversion involving type parameter "+to.String())
	}
}

func isPointerLike(t types.Type) bool {
	switch u := t.(type) {
	case *types.Pointer:
		return true
	case *types.Basic:
		return u.Kind() == types.UnsafePointer
	}
	return false
}

func (c *compiler) sliceToArrayPointer(in *ssa.SliceToArrayPointer) op {
	x, dst := c.reg(in.X), c.reg(in)
	n := int(in.Type().Underlying().(*types.Pointer).Elem().Underlying().(*types.Array).Len())
	return func(t *thread, fr *frame) ctl {
		sl := fr.regs[x].(Slice)
		if sl.Len < n {
			return t.runtimePanic(fr, fmt.Sprintf("cannot convert slice with length %d to array or pointer to array with length %d", sl.Len, n))
		}
		if sl.Obj == 0 {
			fr.regs[dst] = Pointer{}
			return ctlNext
		}
		fr.regs[dst] = Pointer{Obj: sl.Obj, Off: sl.Off}
		return ctlNext
	}
}

func (c *compiler) index(in *ssa.Index) op {
	x, i, dst := c.reg(in.X), c.reg(in.Index), c.reg(in)
	switch u := in.X.Type().Underlying().(type) {
	case *types.Basic: // string
		return func(t *thread, fr *frame) ctl {
			s := fr.regs[x].(string)
			k := toInt64(fr.regs[i])
			if k < 0 || k >= int64(len(s)) {
				return t.runtimePanic(fr, boundsMsg(int(k), len(s)))
			}
			fr.regs[dst] = s[k]
			return ctlNext
		}
	case *types.Array:
		at := c.rt(u)
		et := at.Elem
		return func(t *thread, fr *frame) ctl {
			cells := fr.regs[x].([]Value)
			k := toInt64(fr.regs[i])
			if k < 0 || k >= int64(at.Len) {
				return t.runtimePanic(fr, boundsMsg(int(k), at.Len))
			}
			off := int(k) * et.Size
			if et.Agg {
				fr.regs[dst] = cells[off : off+et.Size]
			} else {
				fr.regs[dst] = cells[off]
			}
			return ctlNext
		}
	}
	return func(t *thread, fr *frame) ctl { return t.unsupported(fr, "index of "+in.X.Type().String()) }
}

func (c *compiler) indexAddr(in *ssa.IndexAddr) op {
	x, i, dst := c.reg(in.X), c.reg(in.Index), c.reg(in)
	switch u := in.X.Type().Underlying().(type) {
	case *types.Slice:
		es := int32(c.rt(u.Elem()).Size)
		return func(t *thread, fr *frame) ctl {
			sl := fr.regs[x].(Slice)
			k := toInt64(fr.regs[i])
			if k < 0 || k >= int64(sl.Len) {
				return t.runtimePanic(fr, boundsMsg(int(k), sl.Len))
			}
			fr.regs[dst] = Pointer{Obj: sl.Obj, Off: sl.Off + int32(k)*es}
			return ctlNext
		}
	case *types.Pointer: // *array
		at := c.rt(u.Elem())
		es := int32(at.Elem.Size)
		hdr := headerArray(u.Elem()) // a string's or slice's words (unsafehdrarray.go)
		eb := at.Elem.byteSize()
		return func(t *thread, fr *frame) ctl {
			k := toInt64(fr.regs[i])
			p, ok := fr.regs[x].(Pointer)
			if !ok {
				// an array over a string's bytes ((*[8]byte)(unsafe.StringData(s)),
				// bytedance/gopkg's runtimex.ReadUnaligned64): the element's
				// address in them (read-only, unsafestr.go)
				sp, ok := fr.regs[x].(strPtr)
				if !ok {
					return t.unsupported(fr, fmt.Sprintf("index of %s through an unsafe pointer of kind %T", in.X.Type(), fr.regs[x]))
				}
				if k < 0 || k >= int64(at.Len) {
					return t.runtimePanic(fr, boundsMsg(int(k), at.Len))
				}
				fr.regs[dst] = sp.add(k * eb)
				return ctlNext
			}
			if p.Obj == 0 {
				return t.runtimePanic(fr, "invalid memory address or nil pointer dereference")
			}
			if k < 0 || k >= int64(at.Len) {
				return t.runtimePanic(fr, boundsMsg(int(k), at.Len))
			}
			if hdr && k > 0 {
				fr.regs[dst] = t.headerElemAddr(p, int(k))
				return ctlNext
			}
			fr.regs[dst] = Pointer{Obj: p.Obj, Off: p.Off + int32(k)*es}
			return ctlNext
		}
	}
	return func(t *thread, fr *frame) ctl { return t.unsupported(fr, "index of "+in.X.Type().String()) }
}

func (c *compiler) lookup(in *ssa.Lookup) op {
	x, k, dst := c.reg(in.X), c.reg(in.Index), c.reg(in)
	if _, ok := in.X.Type().Underlying().(*types.Basic); ok {
		return func(t *thread, fr *frame) ctl {
			s := fr.regs[x].(string)
			i := toInt64(fr.regs[k])
			if i < 0 || i >= int64(len(s)) {
				return t.runtimePanic(fr, boundsMsg(int(i), len(s)))
			}
			fr.regs[dst] = s[i]
			return ctlNext
		}
	}
	mt := c.rt(in.X.Type())
	zero := mt.Elem.Zero()
	commaOk := in.CommaOk
	return func(t *thread, fr *frame) ctl {
		m := fr.regs[x].(Map)
		var v Value
		found := false
		if m.Obj != 0 {
			if msg := hashable(fr.regs[k]); msg != "" {
				return t.runtimePanic(fr, msg)
			}
			o := t.s.heap.get(m.Obj)
			if o.shared && fr.fn.shared && !t.hidden {
				if t.yieldBefore() {
					return ctlYield
				}
				t.touch(m.Obj, false)
			}
			t.raceMap(fr, m.Obj, false)
			v, found = o.Map.lookup(fr.regs[k])
		}
		if !found {
			v = zero
		}
		if commaOk {
			fr.regs[dst] = Tuple{v, found}
		} else {
			fr.regs[dst] = v
		}
		return ctlNext
	}
}

func (c *compiler) rangeOp(in *ssa.Range) op {
	x, dst := c.reg(in.X), c.reg(in)
	return func(t *thread, fr *frame) ctl {
		switch v := fr.regs[x].(type) {
		case string:
			fr.regs[dst] = &rangeIter{str: v}
		case Map:
			t.raceMap(fr, v.Obj, false)
			fr.regs[dst] = &rangeIter{m: v.Obj}
		default:
			return t.unsupported(fr, "range over "+in.X.Type().String())
		}
		return ctlNext
	}
}

func (c *compiler) next(in *ssa.Next) op {
	it, dst := c.reg(in.Iter), c.reg(in)
	if in.IsString {
		return func(t *thread, fr *frame) ctl {
			r := fr.regs[it].(*rangeIter)
			if r.pos >= len(r.str) {
				fr.regs[dst] = Tuple{false, 0, int32(0)}
				return ctlNext
			}
			ch, size := utf8.DecodeRuneInString(r.str[r.pos:])
			fr.regs[dst] = Tuple{true, r.pos, int32(ch)}
			// iterators are per-frame values: advance a copy
			fr.regs[it] = &rangeIter{str: r.str, pos: r.pos + size}
			return ctlNext
		}
	}
	mt := c.rt(in.Iter.(*ssa.Range).X.Type())
	return func(t *thread, fr *frame) ctl {
		r := fr.regs[it].(*rangeIter)
		if r.m == 0 {
			fr.regs[dst] = Tuple{false, mt.Key.Zero(), mt.Elem.Zero()}
			return ctlNext
		}
		if k := t.observe(fr, r.m, "range"); k != ctlNext {
			return k
		}
		t.raceMap(fr, r.m, false)
		md := t.s.heap.get(r.m).Map
		pos := r.pos
		for pos < len(md.ents) && md.ents[pos].dead {
			pos++
		}
		if pos >= len(md.ents) {
			fr.regs[dst] = Tuple{false, mt.Key.Zero(), mt.Elem.Zero()}
			fr.regs[it] = &rangeIter{m: r.m, pos: pos}
			return ctlNext
		}
		e := md.ents[pos]
		fr.regs[dst] = Tuple{true, e.k, e.v}
		fr.regs[it] = &rangeIter{m: r.m, pos: pos + 1}
		return ctlNext
	}
}

func (c *compiler) sliceOp(in *ssa.Slice) op {
	x, dst := c.reg(in.X), c.reg(in)
	lo, hi, mx := -1, -1, -1
	if in.Low != nil {
		lo = c.reg(in.Low)
	}
	if in.High != nil {
		hi = c.reg(in.High)
	}
	if in.Max != nil {
		mx = c.reg(in.Max)
	}
	get := func(fr *frame, r int, def int) int {
		if r < 0 {
			return def
		}
		return int(toInt64(fr.regs[r]))
	}
	switch u := in.X.Type().Underlying().(type) {
	case *types.Basic:
		return func(t *thread, fr *frame) ctl {
			s := fr.regs[x].(string)
			l, h := get(fr, lo, 0), get(fr, hi, len(s))
			if h < 0 || h > len(s) {
				return t.runtimePanic(fr, fmt.Sprintf("slice bounds out of range [:%d] with length %d", h, len(s)))
			}
			if l < 0 || l > h {
				return t.runtimePanic(fr, fmt.Sprintf("slice bounds out of range [%d:%d]", l, h))
			}
			fr.regs[dst] = s[l:h]
			return ctlNext
		}
	case *types.Slice:
		es := int32(c.rt(u.Elem()).Size)
		return func(t *thread, fr *frame) ctl {
			sl := fr.regs[x].(Slice)
			l, h, m := get(fr, lo, 0), get(fr, hi, sl.Len), get(fr, mx, sl.Cap)
			if msg := sliceBounds(l, h, m, sl.Cap, mx >= 0, "capacity"); msg != "" {
				return t.runtimePanic(fr, msg)
			}
			fr.regs[dst] = Slice{Obj: sl.Obj, Off: sl.Off + int32(l)*es, Len: h - l, Cap: m - l}
			return ctlNext
		}
	case *types.Pointer:
		at := c.rt(u.Elem())
		es := int32(at.Elem.Size)
		return func(t *thread, fr *frame) ctl {
			p := fr.regs[x].(Pointer)
			if p.Obj == 0 {
				return t.runtimePanic(fr, "invalid memory address or nil pointer dereference")
			}
			l, h, m := get(fr, lo, 0), get(fr, hi, at.Len), get(fr, mx, at.Len)
			if msg := sliceBounds(l, h, m, at.Len, mx >= 0, "length"); msg != "" {
				return t.runtimePanic(fr, msg)
			}
			fr.regs[dst] = Slice{Obj: p.Obj, Off: p.Off + int32(l)*es, Len: h - l, Cap: m - l}
			return ctlNext
		}
	}
	return func(t *thread, fr *frame) ctl { return t.unsupported(fr, "slice of "+in.X.Type().String()) }
}

func sliceBounds(l, h, m, capacity int, three bool, what string) string {
	if three {
		if m < 0 || m > capacity {
			return fmt.Sprintf("slice bounds out of range [::%d] with %s %d", m, what, capacity)
		}
		if h < 0 || h > m {
			return fmt.Sprintf("slice bounds out of range [:%d:%d]", h, m)
		}
		if l < 0 || l > h {
			return fmt.Sprintf("slice bounds out of range [%d:%d:]", l, h)
		}
		return ""
	}
	if h < 0 || h > m {
		return fmt.Sprintf("slice bounds out of range [:%d] with %s %d", h, what, capacity)
	}
	if l < 0 || l > h {
		return fmt.Sprintf("slice bounds out of range [%d:%d]", l, h)
	}
	return ""
}

func (c *compiler) typeAssert(in *ssa.TypeAssert) op {
	x, dst := c.reg(in.X), c.reg(in)
	target := c.rt(in.AssertedType)
	iface, toIface := in.AssertedType.Underlying().(*types.Interface)
	srcName := types.TypeString(in.X.Type(), func(p *types.Package) string { return p.Name() })
	commaOk := in.CommaOk
	return func(t *thread, fr *frame) ctl {
		v := fr.regs[x].(Iface)
		var ok bool
		var res Value
		if toIface {
			ok = v.T != nil && v.T.implements(iface)
			res = v
		} else {
			ok = v.T == target
			res = v.V
		}
		if commaOk {
			if !ok {
				res = target.Zero()
			}
			fr.regs[dst] = Tuple{res, ok}
			return ctlNext
		}
		if !ok {
			var msg string
			switch {
			case v.T == nil:
				msg = fmt.Sprintf("interface conversion: interface is nil, not %s", target)
			case toIface:
				msg = fmt.Sprintf("interface conversion: %s is not %s: missing method %s", v.T, target, missingMethod(v.T.T, iface))
			default:
				msg = fmt.Sprintf("interface conversion: %s is %s, not %s", srcName, v.T, target)
			}
			return t.plainPanic(fr, msg)
		}
		fr.regs[dst] = res
		return ctlNext
	}
}

func missingMethod(t types.Type, iface *types.Interface) string {
	m, _ := types.MissingMethod(t, iface, true)
	if m == nil {
		return "?"
	}
	return m.Name()
}
