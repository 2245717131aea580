package vm

import (
	"fmt"
	"go/token"
	"go/types"
	"math"
	"math/bits"
	"strconv"
	"strings"

	"golang.org/x/tools/go/ssa"
)

func (c *compiler) builtin(b *ssa.Builtin, argVals []ssa.Value, dst int) op {
	args := make([]int, len(argVals))
	for i, a := range argVals {
		args[i] = c.reg(a)
	}
	set := func(fr *frame, v Value) {
		if dst >= 0 {
			fr.regs[dst] = v
		}
	}
	switch b.Name() {
	case "len", "cap":
		isCap := b.Name() == "cap"
		return func(t *thread, fr *frame) ctl {
			switch x := fr.regs[args[0]].(type) {
			case Map:
				if k := t.observe(fr, x.Obj, "len"); k != ctlNext {
					return k
				}
				t.raceMap(fr, x.Obj, false) // len reads the map, as Go's detector sees it
			case Chan:
				if !isCap {
					if k := t.observeChan(x.Obj); k != ctlNext {
						return k
					}
				}
			}
			set(fr, t.lenCap(fr.regs[args[0]], argVals[0].Type(), isCap))
			return ctlNext
		}
	case "append":
		elem := c.rt(argVals[0].Type().Underlying().(*types.Slice).Elem())
		return func(t *thread, fr *frame) ctl {
			sl := fr.regs[args[0]].(Slice)
			var vals []Value
			switch x := fr.regs[args[1]].(type) {
			case string:
				for i := 0; i < len(x); i++ {
					vals = append(vals, x[i])
				}
			case Slice:
				for i := 0; i < x.Len; i++ {
					vals = append(vals, t.s.sliceElem(x, elem, i))
				}
				t.raceSlice(fr, x, elem, x.Len, false)
			}
			res := t.appendSlice(sl, elem, vals)
			if res.Obj != sl.Obj { // grown: the old elements are read
				t.raceSlice(fr, sl, elem, sl.Len, false)
			}
			t.raceSlice(fr, Slice{Obj: res.Obj, Off: res.Off + int32(sl.Len*elem.Size)}, elem, len(vals), true)
			set(fr, res)
			return ctlNext
		}
	case "copy":
		elem := c.rt(argVals[0].Type().Underlying().(*types.Slice).Elem())
		return func(t *thread, fr *frame) ctl {
			d := fr.regs[args[0]].(Slice)
			var src []Value
			switch x := fr.regs[args[1]].(type) {
			case string:
				for i := 0; i < len(x); i++ {
					src = append(src, x[i])
				}
			case Slice:
				src = t.s.sliceCells(x, elem)
			}
			n := t.copyCells(d, src, elem)
			if x, ok := fr.regs[args[1]].(Slice); ok {
				t.raceSlice(fr, x, elem, n, false)
			}
			t.raceSlice(fr, d, elem, n, true)
			set(fr, n)
			return ctlNext
		}
	case "delete":
		return func(t *thread, fr *frame) ctl {
			m := fr.regs[args[0]].(Map)
			if m.Obj != 0 {
				if msg := hashable(fr.regs[args[1]]); msg != "" {
					return t.runtimePanic(fr, msg)
				}
				o := t.s.heap.get(m.Obj)
				if o.shared && fr.fn.shared && !t.hidden {
					if t.yieldBefore() {
						return ctlYield
					}
					t.touch(m.Obj, true)
				}
				t.raceMap(fr, m.Obj, true)
				t.s.heap.mut(m.Obj, t.s.epoch).Map.del(fr.regs[args[1]])
			}
			return ctlNext
		}
	case "clear":
		return func(t *thread, fr *frame) ctl {
			switch x := fr.regs[args[0]].(type) {
			case Map:
				if x.Obj != 0 {
					t.raceMap(fr, x.Obj, true)
					t.s.heap.mut(x.Obj, t.s.epoch).Map.clear()
				}
			case Slice:
				elem := c.rt(argVals[0].Type().Underlying().(*types.Slice).Elem())
				t.raceSlice(fr, x, elem, x.Len, true)
				for i := 0; i < x.Len; i++ {
					t.s.writeCells(Pointer{Obj: x.Obj, Off: x.Off + int32(i*elem.Size)}, elem, elem.Zero())
				}
			}
			return ctlNext
		}
	case "close":
		return func(t *thread, fr *frame) ctl { return t.closeChan(fr, fr.regs[args[0]].(Chan)) }
	case "print", "println":
		ln := b.Name() == "println"
		return func(t *thread, fr *frame) ctl {
			var sb strings.Builder
			for i, r := range args {
				if ln && i > 0 {
					sb.WriteByte(' ')
				}
				sb.WriteString(t.printValue(fr.regs[r], argVals[i].Type()))
			}
			if ln {
				sb.WriteByte('\n')
			}
			t.s.write(2, sb.String())
			return ctlNext
		}
	case "recover":
		return func(t *thread, fr *frame) ctl {
			set(fr, t.doRecover(fr))
			return ctlNext
		}
	case "real", "imag":
		re := b.Name() == "real"
		return func(t *thread, fr *frame) ctl {
			switch x := fr.regs[args[0]].(type) {
			case complex64:
				if re {
					set(fr, real(x))
				} else {
					set(fr, imag(x))
				}
			case complex128:
				if re {
					set(fr, real(x))
				} else {
					set(fr, imag(x))
				}
			}
			return ctlNext
		}
	case "complex":
		return func(t *thread, fr *frame) ctl {
			switch x := fr.regs[args[0]].(type) {
			case float32:
				set(fr, complex(x, fr.regs[args[1]].(float32)))
			case float64:
				set(fr, complex(x, fr.regs[args[1]].(float64)))
			}
			return ctlNext
		}
	case "min", "max":
		less := binop(token.LSS, argVals[0].Type())
		isMax := b.Name() == "max"
		return func(t *thread, fr *frame) ctl {
			best := fr.regs[args[0]]
			for _, r := range args[1:] {
				v := fr.regs[r]
				if isNaN(best) {
					break
				}
				if isNaN(v) {
					best = v
					break
				}
				var l Value
				if isMax {
					l, _ = less(best, v)
				} else {
					l, _ = less(v, best)
				}
				if l.(bool) || (isZeroFloat(v) && isZeroFloat(best) && signbit(v) != isMax && signbit(best) == isMax) {
					best = v
				}
			}
			set(fr, best)
			return ctlNext
		}
	case "ssa:wrapnilchk":
		return func(t *thread, fr *frame) ctl {
			p := fr.regs[args[0]]
			if isNilValue(p) {
				recv := fr.regs[args[1]].(string)
				meth := fr.regs[args[2]].(string)
				return t.plainPanic(fr, fmt.Sprintf("value method %s.%s called using nil *%s pointer", recv, meth, recv[strings.LastIndexByte(recv, '.')+1:]))
			}
			set(fr, p)
			return ctlNext
		}
	case "String": // unsafe.String(ptr *byte, len)
		return func(t *thread, fr *frame) ctl {
			n := toInt(fr.regs[args[1]])
			switch x := fr.regs[args[0]].(type) {
			case strPtr:
				return t.unsafeStringOfStr(fr, x, n, dst)
			case wildPtr:
				return t.unsafeSliceOfWild(fr, "String", x, 1, n, dst)
			}
			p := fr.regs[args[0]].(Pointer)
			if n == 0 {
				set(fr, "")
				return ctlNext
			}
			if msg := unsafeLenCheck("String", n, 1, p.Obj == 0); msg != "" {
				return t.runtimePanic(fr, msg)
			}
			o := t.s.heap.get(p.Obj)
			if int(p.Off)+n > len(o.Cells) {
				return t.unsupported(fr, "unsafe.String beyond the end of the object")
			}
			b := make([]byte, n)
			for i := range b {
				b[i] = byte(toUint64(o.Cells[int(p.Off)+i]))
			}
			set(fr, string(b))
			return ctlNext
		}
	case "StringData": // unsafe.StringData(s)
		return func(t *thread, fr *frame) ctl {
			s := fr.regs[args[0]].(string)
			sp, ok := t.m.strPointer(s)
			if !ok {
				return t.unsupported(fr, strApartMsg)
			}
			if sp.r == nil || s == "" {
				set(fr, Pointer{}) // Go's StringData of "" may be nil; the VM's is
				return ctlNext
			}
			set(fr, sp)
			return ctlNext
		}
	case "Slice": // unsafe.Slice(ptr *T, len)
		elem := c.rt(argVals[0].Type().Underlying().(*types.Pointer).Elem())
		return func(t *thread, fr *frame) ctl {
			n := toInt(fr.regs[args[1]])
			switch x := fr.regs[args[0]].(type) {
			case strPtr:
				return t.unsafeSliceOfStr(fr, x, elem, n, dst)
			case wildPtr:
				return t.unsafeSliceOfWild(fr, "Slice", x, gcSizes.Sizeof(elem.T), n, dst)
			case cellByte: // from a byte inside a number's cell
				return t.unsafeSliceView(fr, x.p, int64(x.k), elem, n, dst)
			}
			p := fr.regs[args[0]].(Pointer)
			if msg := unsafeLenCheck("Slice", n, gcSizes.Sizeof(elem.T), p.Obj == 0); msg != "" {
				return t.runtimePanic(fr, msg)
			}
			if p.Obj == 0 {
				set(fr, Slice{})
				return ctlNext
			}
			o := t.s.heap.get(p.Obj)
			if o.kind == objView { // from an element of a view
				base, off := viewByte(o, p)
				return t.unsafeSliceView(fr, base, off, elem, n, dst)
			}
			if t.castWidthDiffers(p, elem) { // numbers of another width: a view of their bytes
				return t.unsafeSliceView(fr, p, 0, elem, n, dst)
			}
			if int(p.Off)+n*elem.Size > len(o.Cells) {
				return t.unsupported(fr, "unsafe.Slice beyond the end of the object")
			}
			set(fr, Slice{Obj: p.Obj, Off: p.Off, Len: n, Cap: n})
			return ctlNext
		}
	case "Sizeof", "Alignof": // of a value whose type has type parameters (constant otherwise): the instance's
		t0 := argVals[0].Type()
		if hasTypeParam(t0) {
			break
		}
		var n uintptr
		if b.Name() == "Sizeof" {
			n = uintptr(gcSizes.Sizeof(t0))
		} else {
			n = uintptr(gcSizes.Alignof(t0))
		}
		return func(t *thread, fr *frame) ctl {
			set(fr, n)
			return ctlNext
		}
	case "Offsetof": // of a field of a struct whose type has type parameters (constant otherwise): the instance's
		// go/ssa passes the field's value (a Field of the struct); a
		// selection through embedded or nested structs is left
		// unsupported (the explicit and implicit steps look alike)
		f, ok := argVals[0].(*ssa.Field)
		if !ok {
			break
		}
		if _, nested := f.X.(*ssa.Field); nested {
			break
		}
		st, ok := f.X.Type().Underlying().(*types.Struct)
		if !ok || hasTypeParam(st) {
			break
		}
		fields := make([]*types.Var, st.NumFields())
		for i := range fields {
			fields[i] = st.Field(i)
		}
		n := uintptr(gcSizes.Offsetsof(fields)[f.Field])
		return func(t *thread, fr *frame) ctl {
			set(fr, n)
			return ctlNext
		}
	case "Add": // unsafe.Add(ptr, len)
		return func(t *thread, fr *frame) ctl {
			n := toInt64(fr.regs[args[1]])
			var a uintptr
			switch x := fr.regs[args[0]].(type) {
			case strPtr:
				set(fr, x.add(n))
				return ctlNext
			case wildPtr:
				a = x.a
			case cellByte:
				a = x.addr(t.s)
			case Pointer:
				a = t.s.addrOfPointer(x)
			}
			set(fr, t.pointerOfAddr(uintptr(int64(a)+n)))
			return ctlNext
		}
	case "SliceData": // unsafe.SliceData(s)
		return func(t *thread, fr *frame) ctl {
			sl := fr.regs[args[0]].(Slice)
			set(fr, Pointer{Obj: sl.Obj, Off: sl.Off})
			return ctlNext
		}
	case "panic": // go panic(v), defer panic(v): a call in a frame of its own
		return func(t *thread, fr *frame) ctl {
			return t.doPanic(t.g.top, fr.regs[args[0]])
		}
	case "ssa:deferstack":
		return func(t *thread, fr *frame) ctl {
			set(fr, deferStack{depth: frameDepth(fr)})
			return ctlNext
		}
	}
	return func(t *thread, fr *frame) ctl {
		return t.unsupported(fr, "builtin "+b.Name())
	}
}

// hasTypeParam reports whether t mentions a type parameter (an
// uninstantiated generic body).
func hasTypeParam(t types.Type) bool {
	found := false
	var walk func(t types.Type)
	seen := map[types.Type]bool{}
	walk = func(t types.Type) {
		if found || seen[t] {
			return
		}
		seen[t] = true
		switch u := t.(type) {
		case *types.TypeParam:
			found = true
		case *types.Named:
			for i := 0; i < u.TypeArgs().Len(); i++ {
				walk(u.TypeArgs().At(i))
			}
			walk(u.Underlying())
		case *types.Pointer:
			walk(u.Elem())
		case *types.Slice:
			walk(u.Elem())
		case *types.Array:
			walk(u.Elem())
		case *types.Map:
			walk(u.Key())
			walk(u.Elem())
		case *types.Chan:
			walk(u.Elem())
		case *types.Struct:
			for i := 0; i < u.NumFields(); i++ {
				walk(u.Field(i).Type())
			}
		case *types.Signature:
			walk(u.Params())
			walk(u.Results())
		case *types.Tuple:
			for i := 0; i < u.Len(); i++ {
				walk(u.At(i).Type())
			}
		}
	}
	walk(t)
	return found
}

// unsafeLenCheck is the runtime's check of unsafe.Slice's and
// unsafe.String's length n of elements of size bytes: the panic message,
// or "". (A VM address is far below the top of the address space, so only
// a size that overflows a uintptr is out of range.)
func unsafeLenCheck(fn string, n int, size int64, nilPtr bool) string {
	if n < 0 {
		return "unsafe." + fn + ": len out of range"
	}
	if hi, _ := bits.Mul64(uint64(n), uint64(size)); hi != 0 {
		if nilPtr {
			return "unsafe." + fn + ": ptr is nil and len is not zero"
		}
		return "unsafe." + fn + ": len out of range"
	}
	if nilPtr && n != 0 {
		return "unsafe." + fn + ": ptr is nil and len is not zero"
	}
	return ""
}

func isNaN(v Value) bool {
	switch x := v.(type) {
	case float64:
		return math.IsNaN(x)
	case float32:
		return math.IsNaN(float64(x))
	}
	return false
}

func isZeroFloat(v Value) bool {
	switch x := v.(type) {
	case float64:
		return x == 0
	case float32:
		return x == 0
	}
	return false
}

func signbit(v Value) bool { return math.Signbit(toFloat64(v)) }

func (t *thread) lenCap(v Value, typ types.Type, isCap bool) int {
	switch x := v.(type) {
	case string:
		return len(x)
	case Slice:
		if isCap {
			return x.Cap
		}
		return x.Len
	case Map:
		if x.Obj == 0 {
			return 0
		}
		return t.s.heap.get(x.Obj).Map.live
	case Chan:
		if x.Obj == 0 {
			return 0
		}
		ch := t.s.heap.get(x.Obj).Chan
		if isCap {
			return ch.cap
		}
		return len(ch.buf)
	}
	// arrays and pointers to arrays
	u := typ.Underlying()
	if p, ok := u.(*types.Pointer); ok {
		u = p.Elem().Underlying()
	}
	if a, ok := u.(*types.Array); ok {
		return int(a.Len())
	}
	return 0
}

// printValue formats v as the print/println builtins do.
func (t *thread) printValue(v Value, typ types.Type) string {
	switch x := v.(type) {
	case bool:
		return strconv.FormatBool(x)
	case int, int8, int16, int32, int64:
		return strconv.FormatInt(toInt64(x), 10)
	case uint, uint8, uint16, uint32, uint64, uintptr:
		return strconv.FormatUint(toUint64(x), 10)
	case float32:
		return strconv.FormatFloat(float64(x), 'g', -1, 32)
	case float64:
		return printFloat(x)
	case complex64:
		return strconv.FormatComplex(complex128(x), 'g', -1, 64)
	case complex128:
		return strconv.FormatComplex(x, 'g', -1, 128)
	case string:
		return x
	case Iface:
		if x.T == nil {
			return "(0x0,0x0)"
		}
		return fmt.Sprintf("(0x%x,0x%x)", x.T.ID, addrOf(x.V))
	case Pointer, Chan, Map, Slice, *Closure:
		if isNilValue(v) {
			if _, ok := v.(Slice); ok {
				return "[0/0]0x0"
			}
			return "0x0"
		}
		if s, ok := v.(Slice); ok {
			return fmt.Sprintf("[%d/%d]0x%x", s.Len, s.Cap, addrOf(v))
		}
		return fmt.Sprintf("0x%x", addrOf(v))
	case nil:
		return "nil"
	}
	return fmt.Sprint(v)
}

func addrOf(v Value) uint64 {
	switch x := v.(type) {
	case Pointer:
		return addrBase + uint64(x.Obj)<<addrObjShift + uint64(x.Off)*8
	case Slice:
		return addrBase + uint64(x.Obj)<<addrObjShift + uint64(x.Off)*8
	case Map:
		return addrBase + uint64(x.Obj)<<addrObjShift
	case Chan:
		return addrBase + uint64(x.Obj)<<addrObjShift
	}
	return 0xc000001000
}

// printFloat formats like the runtime's printfloat64 (shortest 'g' form).
func printFloat(v float64) string {
	return strconv.FormatFloat(v, 'g', -1, 64)
}
