package vm

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// instr compiles one SSA instruction (not a φ-node) into an op.
func (c *compiler) instr(in ssa.Instruction) op {
	switch in := in.(type) {
	case *ssa.Alloc:
		rt := c.rt(in.Type().(*types.Pointer).Elem())
		dst := c.reg(in)
		if c.m.capturedByValue(in) { // byvalue.go
			return func(t *thread, fr *frame) ctl {
				p := t.alloc(rt)
				if p.Obj != t.m.zerobase {
					t.s.heap.mut(p.Obj, t.s.epoch).readOnly = true
				}
				fr.regs[dst] = p
				return ctlNext
			}
		}
		return func(t *thread, fr *frame) ctl {
			fr.regs[dst] = t.alloc(rt)
			return ctlNext
		}
	case *ssa.BinOp:
		return c.binOp(in)
	case *ssa.UnOp:
		return c.unOp(in)
	case *ssa.Call:
		return c.call(in, &in.Call, c.reg(in))
	case *ssa.ChangeInterface, *ssa.ChangeType, *ssa.SliceToArrayPointer:
		if s, ok := in.(*ssa.SliceToArrayPointer); ok {
			return c.sliceToArrayPointer(s)
		}
		x, dst := c.reg(*in.Operands(nil)[0]), c.reg(in.(ssa.Value))
		return func(t *thread, fr *frame) ctl {
			fr.regs[dst] = fr.regs[x]
			return ctlNext
		}
	case *ssa.Convert:
		return c.convert(in.X, in.Type(), c.reg(in))
	case *ssa.MultiConvert:
		return c.convert(in.X, in.Type(), c.reg(in))
	case *ssa.Extract:
		x, dst, i := c.reg(in.Tuple), c.reg(in), in.Index
		return func(t *thread, fr *frame) ctl {
			fr.regs[dst] = fr.regs[x].(Tuple)[i]
			return ctlNext
		}
	case *ssa.Field:
		st := c.rt(in.X.Type())
		ft := c.rt(in.Type())
		off := st.Fields[in.Field]
		x, dst := c.reg(in.X), c.reg(in)
		return func(t *thread, fr *frame) ctl {
			cells := fr.regs[x].([]Value)
			if ft.Agg {
				fr.regs[dst] = cells[off : off+ft.Size]
			} else {
				fr.regs[dst] = cells[off]
			}
			return ctlNext
		}
	case *ssa.FieldAddr:
		st := c.rt(in.X.Type().Underlying().(*types.Pointer).Elem())
		off := int32(st.Fields[in.Field])
		x, dst := c.reg(in.X), c.reg(in)
		if sst := st.T.Underlying().(*types.Struct); wordIndex(sst, in.Field) > 0 && (headerShaped(sst) || ifaceShaped(sst)) {
			field := wordIndex(sst, in.Field) // the field's word (protobuf's ifaceHeader starts with a `_ [0]any`)
			return func(t *thread, fr *frame) ctl {
				p, ok := fr.regs[x].(Pointer)
				if !ok {
					return t.unsupported(fr, fmt.Sprintf("a field of %T", fr.regs[x]))
				}
				if p.Obj == 0 {
					return t.runtimePanic(fr, "invalid memory address or nil pointer dereference")
				}
				fr.regs[dst] = t.headerFieldAddr(p, field, off)
				return ctlNext
			}
		}
		if byteOff, ok := castField(in); ok { // a field of a struct view of numbers (unsafeview_struct.go)
			return c.castFieldAddrOp(in, byteOff)
		}
		return func(t *thread, fr *frame) ctl {
			p := fr.regs[x].(Pointer)
			if p.Obj == 0 {
				return t.runtimePanic(fr, "invalid memory address or nil pointer dereference")
			}
			fr.regs[dst] = Pointer{Obj: p.Obj, Off: p.Off + off}
			return ctlNext
		}
	case *ssa.Index:
		return c.index(in)
	case *ssa.IndexAddr:
		return c.indexAddr(in)
	case *ssa.Lookup:
		return c.lookup(in)
	case *ssa.MakeChan:
		return c.makeChan(in)
	case *ssa.MakeClosure:
		fn := in.Fn.(*ssa.Function)
		dst := c.reg(in)
		binds := make([]int, len(in.Bindings))
		for i, b := range in.Bindings {
			binds[i] = c.reg(b)
		}
		return func(t *thread, fr *frame) ctl {
			env := make([]Value, len(binds))
			for i, r := range binds {
				env[i] = fr.regs[r]
			}
			fr.regs[dst] = &Closure{Fn: fn, Env: env}
			return ctlNext
		}
	case *ssa.MakeInterface:
		rt := c.rt(in.X.Type())
		x, dst := c.reg(in.X), c.reg(in)
		return func(t *thread, fr *frame) ctl {
			fr.regs[dst] = Iface{T: rt, V: fr.regs[x]}
			return ctlNext
		}
	case *ssa.MakeMap:
		rt := c.rt(in.Type())
		dst := c.reg(in)
		return func(t *thread, fr *frame) ctl {
			fr.regs[dst] = Map{Obj: t.newObject(&Object{kind: objMap, T: rt, Map: newMapData()})}
			return ctlNext
		}
	case *ssa.MakeSlice:
		elem := c.rt(in.Type().Underlying().(*types.Slice).Elem())
		l, cp, dst := c.reg(in.Len), c.reg(in.Cap), c.reg(in)
		return func(t *thread, fr *frame) ctl {
			n, k := toInt64(fr.regs[l]), toInt64(fr.regs[cp])
			if n < 0 || n > 1<<40 {
				return t.runtimePanic(fr, "makeslice: len out of range")
			}
			if k < n || k > 1<<40 {
				return t.runtimePanic(fr, "makeslice: cap out of range")
			}
			fr.regs[dst] = t.makeSlice(elem, int(n), int(k))
			return ctlNext
		}
	case *ssa.Next:
		return c.next(in)
	case *ssa.Range:
		return c.rangeOp(in)
	case *ssa.Select:
		return c.selectOp(in)
	case *ssa.Slice:
		return c.sliceOp(in)
	case *ssa.TypeAssert:
		return c.typeAssert(in)
	case *ssa.Defer:
		return c.deferOp(in)
	case *ssa.Go:
		return c.goOp(in)
	case *ssa.If:
		cond := c.reg(in.Cond)
		b := in.Block()
		tb, fb := c.fn.blocks[b.Succs[0].Index], c.fn.blocks[b.Succs[1].Index]
		te, fe := predIndex(b.Succs[0], b), predIndex(b.Succs[1], b)
		return func(t *thread, fr *frame) ctl {
			switch v := fr.regs[cond].(type) {
			case bool:
				if v {
					return t.jump(fr, tb, te)
				}
				return t.jump(fr, fb, fe)
			default:
				return t.symbolicBranch(fr, v, tb, te, fb, fe)
			}
		}
	case *ssa.Jump:
		b := in.Block()
		to := c.fn.blocks[b.Succs[0].Index]
		e := predIndex(b.Succs[0], b)
		return func(t *thread, fr *frame) ctl { return t.jump(fr, to, e) }
	case *ssa.MapUpdate:
		m, k, v := c.reg(in.Map), c.reg(in.Key), c.reg(in.Value)
		hasRefs := c.rt(in.Value.Type()).hasPointers() || c.rt(in.Key.Type()).hasPointers()
		return func(t *thread, fr *frame) ctl {
			mv := fr.regs[m].(Map)
			if mv.Obj == 0 {
				return t.plainPanic(fr, "assignment to entry in nil map")
			}
			if msg := hashable(fr.regs[k]); msg != "" {
				return t.runtimePanic(fr, msg)
			}
			o := t.s.heap.get(mv.Obj)
			if o.shared {
				if fr.fn.shared && !t.hidden {
					if t.yieldBefore() {
						return ctlYield
					}
					t.touch(mv.Obj, true)
				}
				if hasRefs {
					t.share(fr.regs[k])
					t.share(fr.regs[v])
				}
			}
			t.raceMap(fr, mv.Obj, true)
			t.s.heap.mut(mv.Obj, t.s.epoch).Map.set(fr.regs[k], fr.regs[v])
			return ctlNext
		}
	case *ssa.Panic:
		x := c.reg(in.X)
		return func(t *thread, fr *frame) ctl {
			v := fr.regs[x]
			if iv, ok := v.(Iface); ok && iv.T == nil && !t.m.panicNilValue {
				return t.doPanic(fr, Iface{T: t.m.panicNilType(), V: "panic called with nil argument (use runtime.PanicNilError)"})
			}
			return t.doPanic(fr, v)
		}
	case *ssa.Return:
		rs := make([]int, len(in.Results))
		for i, r := range in.Results {
			rs[i] = c.reg(r)
		}
		return func(t *thread, fr *frame) ctl {
			if d := fr.defers; d != nil {
				// defers pushed through a defer stack (range-over-func
				// bodies) run at return even without a RunDefers
				k, done := t.callDeferred(fr, d)
				if done {
					return ctlJump // re-execute the return
				}
				return k
			}
			switch len(rs) {
			case 0:
				return t.ret(fr, nil)
			case 1:
				return t.ret(fr, fr.regs[rs[0]])
			}
			tup := make(Tuple, len(rs))
			for i, r := range rs {
				tup[i] = fr.regs[r]
			}
			return t.ret(fr, tup)
		}
	case *ssa.RunDefers:
		return func(t *thread, fr *frame) ctl {
			d := fr.defers
			if d == nil {
				return ctlNext
			}
			k, done := t.callDeferred(fr, d)
			if done {
				return ctlJump // re-run RunDefers for the next deferred call
			}
			return k
		}
	case *ssa.Send:
		return c.send(in)
	case *ssa.Store:
		if returnSelfStore(in) {
			// gc emits no store for `return x` where x is the named
			// result itself (cmd/compile's ascompatee: "do not generate
			// x = x during return", issue 4014), so neither a write nor
			// a scheduling point happens here
			return func(t *thread, fr *frame) ctl { return ctlNext }
		}
		if castStore(in) { // unsafeview.go
			return c.castStoreOp(in)
		}
		if _, ok := structViewConv(in.Addr); ok { // a whole struct view (unsafeview_struct.go)
			return c.castStructStoreOp(in)
		}
		if hdrDataStore(in) { // unsafeview_slice.go
			return c.hdrDataStoreOp(in)
		}
		rt := c.rt(in.Val.Type())
		hasRefs := rt.hasPointers()
		a, v := c.reg(in.Addr), c.reg(in.Val)
		return func(t *thread, fr *frame) ctl {
			p, ok := fr.regs[a].(Pointer)
			if !ok {
				return t.storeOtherValue(fr, fr.regs[a], rt, fr.regs[v])
			}
			return t.store(fr, p, rt, fr.regs[v], hasRefs)
		}
	case *ssa.DebugRef:
		return func(t *thread, fr *frame) ctl { return ctlNext }
	}
	return func(t *thread, fr *frame) ctl {
		return t.unsupported(fr, "SSA instruction "+in.String())
	}
}

// returnSelfStore reports whether st is the store go/ssa emits for a return
// statement `return ..., x, ...` into the escaping named result x from x
// itself. The builder stores each operand into its named result at the
// return's position, then returns the reloaded results; the syntax tells a
// result returned as itself from a copy of it taken earlier (`y := x;
// return y` writes x, as gc compiles it).
func returnSelfStore(st *ssa.Store) bool {
	alloc, ok := st.Addr.(*ssa.Alloc)
	if !ok || !st.Pos().IsValid() {
		return false
	}
	if ld, ok := st.Val.(*ssa.UnOp); !ok || ld.Op != token.MUL || ld.X != st.Addr {
		return false
	}
	fn := st.Parent()
	res := fn.Signature.Results()
	j := -1
	for i := range res.Len() {
		if res.At(i).Name() == alloc.Comment {
			j = i
		}
	}
	if j < 0 || fn.Syntax() == nil {
		return false
	}
	self := false
	ast.Inspect(fn.Syntax(), func(n ast.Node) bool {
		ret, ok := n.(*ast.ReturnStmt)
		if !ok {
			return !self
		}
		if ret.Return == st.Pos() && len(ret.Results) == res.Len() {
			id, ok := ast.Unparen(ret.Results[j]).(*ast.Ident)
			self = ok && id.Name == alloc.Comment
		}
		return false
	})
	return self
}

// unevaluatedRange reports whether load in is the range expression of a
// range statement over an array with no value variable, not even a blank
// one (gc and the race detector read the array for `for i, _ :=`), which
// go/ssa evaluates and the spec does not ("if at most one iteration
// variable is present and len(x) is constant, the range expression is
// not evaluated"): gc reads no memory there, so neither does the VM — a
// read of the whole array raced with every atomic counter in it
// (coocood/freecache's TestRace: `for i := range cache.segments`).
func unevaluatedRange(in *ssa.UnOp) bool {
	if in.Op != token.MUL || in.Referrers() == nil || len(*in.Referrers()) != 0 || !in.Pos().IsValid() {
		return false
	}
	if _, ok := in.Type().Underlying().(*types.Array); !ok {
		return false
	}
	syn := in.Parent().Syntax()
	if syn == nil {
		return false
	}
	found := false
	ast.Inspect(syn, func(n ast.Node) bool {
		if rs, ok := n.(*ast.RangeStmt); ok && rs.X.Pos() <= in.Pos() && in.Pos() < rs.X.End() {
			found = rs.Value == nil // (`for i, _ := range` has two variables: gc reads the array)
		}
		return !found
	})
	return found
}

func predIndex(succ, pred *ssa.BasicBlock) int {
	for i, p := range succ.Preds {
		if p == pred {
			return i
		}
	}
	return -1
}

func (c *compiler) binOp(in *ssa.BinOp) op {
	if (in.Op == token.EQL || in.Op == token.NEQ) && isReflectValue(in.X.Type()) {
		return c.reflectValueEqOp(in) // natives_reflect_eq.go
	}
	f := binop(in.Op, in.X.Type())
	if rt := c.rt(in.X.Type()); rt.blank != nil && (in.Op == token.EQL || in.Op == token.NEQ) {
		eq := in.Op == token.EQL
		f = func(a, b Value) (Value, string) { return equalBlank(a.([]Value), b.([]Value), rt.blank) == eq, "" }
	}
	x, y, dst := c.reg(in.X), c.reg(in.Y), c.reg(in)
	if f == nil {
		return func(t *thread, fr *frame) ctl {
			return t.unsupported(fr, "operator "+in.Op.String()+" on "+in.X.Type().String())
		}
	}
	return func(t *thread, fr *frame) ctl {
		a, b := fr.regs[x], fr.regs[y]
		if t.s.data != nil && (isSym(a) || isSym(b)) {
			return t.symBinOp(fr, in, a, b, dst)
		}
		v, err := f(a, b)
		if err != "" {
			return t.runtimePanic(fr, err)
		}
		fr.regs[dst] = v
		return ctlNext
	}
}

func (c *compiler) unOp(in *ssa.UnOp) op {
	x, dst := c.reg(in.X), c.reg(in)
	switch in.Op {
	case token.MUL:
		if unevaluatedRange(in) {
			return func(t *thread, fr *frame) ctl { return ctlNext } // (nothing reads dst)
		}
		rt := c.rt(in.Type())
		if funcCastLoad(in) {
			return func(t *thread, fr *frame) ctl {
				if k := t.load(fr, fr.regs[x].(Pointer), rt, dst); k != ctlNext {
					return k
				}
				cl, why := adaptFuncCast(fr.regs[dst].(*Closure), in.Type())
				if why != "" {
					return t.unsupported(fr, why)
				}
				fr.regs[dst] = cl
				return ctlNext
			}
		}
		if castFieldAccess(in.X, in.Type()) { // a field of a struct view (unsafeview_struct.go)
			return c.castFieldLoadOp(in)
		}
		if _, ok := structViewConv(in.X); ok { // a whole struct view
			return c.castStructLoadOp(in)
		}
		if k := scalarCastLoad(in); k != 0 { // unsafescalar.go
			return func(t *thread, fr *frame) ctl {
				p, ok := fr.regs[x].(Pointer)
				if !ok {
					return t.loadOther(fr, fr.regs[x], rt, dst)
				}
				if t.castWidthDiffers(p, rt) { // bytes of numbers of another width (unsafeview.go)
					return t.loadBytes(fr, p, 0, rt, dst)
				}
				if c := t.load(fr, p, rt, dst); c != ctlNext {
					return c
				}
				fr.regs[dst] = reinterpretNumber(fr.regs[dst], k)
				return ctlNext
			}
		}
		if bytesForStringLoad(in) { // unsafestrdata.go
			return func(t *thread, fr *frame) ctl {
				p, ok := fr.regs[x].(Pointer)
				if !ok {
					return t.loadOther(fr, fr.regs[x], rt, dst)
				}
				t.capUnseen = true
				k := t.load(fr, p, rt, dst)
				t.capUnseen = false
				return k
			}
		}
		return func(t *thread, fr *frame) ctl {
			p, ok := fr.regs[x].(Pointer)
			if !ok {
				return t.loadOther(fr, fr.regs[x], rt, dst)
			}
			return t.load(fr, p, rt, dst)
		}
	case token.ARROW:
		return c.recv(in)
	}
	f := unop(in.Op, in.X.Type())
	return func(t *thread, fr *frame) ctl {
		a := fr.regs[x]
		if t.s.data != nil && isSym(a) {
			return t.symUnOp(fr, in, a, dst)
		}
		fr.regs[dst] = f(a)
		return ctlNext
	}
}

// hashable reports the runtime error for a map key of uncomparable dynamic type.
func hashable(k Value) string {
	if iv, ok := k.(Iface); ok && iv.T != nil && !types.Comparable(iv.T.T) {
		return "hash of unhashable type " + iv.T.String()
	}
	return ""
}
