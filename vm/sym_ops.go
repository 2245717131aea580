package vm

import (
	"fmt"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// Symbolic operations: the compiler's guards that concretize operands,
// and the symbolic forms of binary and unary operations, conversions and
// branches (see symbolic.go for the model).

// symGuard wraps the op of an instruction whose operands must be concrete
// so that, in a run with symbolic values, those operands are concretized
// first (symbolic machines only; see the compiler).
func (c *compiler) symGuard(in ssa.Instruction, o op) op {
	var vals []ssa.Value
	switch in := in.(type) {
	case *ssa.Index:
		return c.symBounds(in.X, in.Index, o)
	case *ssa.IndexAddr:
		return c.symBounds(in.X, in.Index, o)
	case *ssa.Lookup:
		if _, isMap := in.X.Type().Underlying().(*types.Map); !isMap {
			return c.symBounds(in.X, in.Index, o)
		}
		vals = []ssa.Value{in.Index}
	case *ssa.Slice:
		vals = []ssa.Value{in.Low, in.High, in.Max}
	case *ssa.MakeSlice:
		vals = []ssa.Value{in.Len, in.Cap}
	case *ssa.MakeChan:
		vals = []ssa.Value{in.Size}
	case *ssa.MapUpdate:
		vals = []ssa.Value{in.Key}
	case *ssa.Panic:
		vals = []ssa.Value{in.X}
	case *ssa.Convert:
		if _, ok := in.X.Type().Underlying().(*types.Slice); ok && isStringType(in.Type()) {
			// string(b) reads the bytes or runes as numbers: those the
			// program stored symbolic are made concrete
			// (dustin/go-humanize's Comma: string([]byte{byte(v) + 48}))
			x := c.reg(in.X)
			return func(t *thread, fr *frame) ctl {
				if sl, ok := fr.regs[x].(Slice); ok && t.s.data != nil && sl.Obj != 0 {
					if k, ok := t.concretizeCells(fr, sl.Obj, int(sl.Off), int(sl.Off)+sl.Len); !ok {
						return k
					}
				}
				return o(t, fr)
			}
		}
	case *ssa.Call:
		if b, ok := in.Call.Value.(*ssa.Builtin); ok {
			switch b.Name() {
			case "append", "copy", "len", "cap", "ssa:wrapnilchk", "ssa:deferstack":
			default:
				vals = in.Call.Args
			}
		}
	}
	var regs []int
	for _, v := range vals {
		if v == nil {
			continue
		}
		if _, isConst := v.(*ssa.Const); isConst {
			continue
		}
		regs = append(regs, c.reg(v))
	}
	if len(regs) == 0 {
		return o
	}
	return func(t *thread, fr *frame) ctl {
		if t.s.data != nil {
			for _, r := range regs {
				if isSymDeep(fr.regs[r]) {
					v, ok := t.concretize(fr.regs[r])
					if !ok {
						return t.solverGaveUp(fr, "symbolic value the solver cannot concretize")
					}
					fr.regs[r] = v
				}
			}
		}
		return o(t, fr)
	}
}

// symBounds wraps an index operation (x[i] on a slice, array, pointer to
// array or string) so that a symbolic index is first checked against the
// length: the out-of-range side, which panics, is a data choice like a
// branch; then the index is concretized on the chosen side.
func (c *compiler) symBounds(xv, iv ssa.Value, o op) op {
	if _, isConst := iv.(*ssa.Const); isConst {
		return o
	}
	x, i := c.reg(xv), c.reg(iv)
	ik := basicKindOf(iv.Type())
	arrayLen := -1
	switch u := xv.Type().Underlying().(type) {
	case *types.Array:
		arrayLen = int(u.Len())
	case *types.Pointer:
		if a, ok := u.Elem().Underlying().(*types.Array); ok {
			arrayLen = int(a.Len())
		}
	}
	return func(t *thread, fr *frame) ctl {
		e, ok := fr.regs[i].(*symExpr)
		if !ok || t.s.data == nil {
			return o(t, fr)
		}
		n := arrayLen
		switch v := fr.regs[x].(type) {
		case Slice:
			n = v.Len
		case string:
			n = len(v)
		}
		if n >= 0 && symKind(ik) {
			out := newSymBin(token.GEQ, types.Bool, newSymConv(types.Uint64, e), newSymConst(types.Uint64, uint64(n)))
			if _, k, ok := t.decide(out); !ok {
				return k
			}
		}
		v, ok := t.concretize(e)
		if !ok {
			return t.solverGaveUp(fr, "symbolic value the solver cannot concretize")
		}
		fr.regs[i] = v
		return o(t, fr)
	}
}

func (t *thread) symBinOp(fr *frame, in *ssa.BinOp, a, b Value, dst int) ctl {
	xk, yk := basicKindOf(in.X.Type()), basicKindOf(in.Y.Type())
	if in.Op == token.EQL || in.Op == token.NEQ {
		if !symKind(xk) { // interfaces, structs, arrays holding symbolic values
			r := symEqual(a, b)
			if in.Op == token.NEQ {
				r = symNot(r)
			}
			fr.regs[dst] = r
			return ctlNext
		}
	}
	if !symKind(xk) || !symKind(yk) {
		return t.concreteBinOp(fr, in, a, b, dst)
	}
	x, y := asSym(a, xk), asSym(b, yk)
	switch in.Op {
	case token.QUO, token.REM:
		if !isSymDeep(b) {
			if toUint64(b) == 0 {
				return t.runtimePanic(fr, "integer divide by zero")
			}
			break
		}
		side, k, ok := t.decide(newSymBin(token.EQL, types.Bool, y, newSymConst(yk, 0)))
		if !ok {
			return k
		}
		if side == 1 {
			return t.runtimePanic(fr, "integer divide by zero")
		}
	case token.SHL, token.SHR:
		if !isSigned(yk) {
			break
		}
		if !isSymDeep(b) {
			if toInt64(b) < 0 {
				return t.runtimePanic(fr, "negative shift amount")
			}
			break
		}
		side, k, ok := t.decide(newSymBin(token.LSS, types.Bool, y, newSymConst(yk, 0)))
		if !ok {
			return k
		}
		if side == 1 {
			return t.runtimePanic(fr, "negative shift amount")
		}
	}
	rk := xk
	switch in.Op {
	case token.EQL, token.NEQ, token.LSS, token.LEQ, token.GTR, token.GEQ:
		rk = types.Bool
	}
	fr.regs[dst] = newSymBin(in.Op, rk, x, y)
	return ctlNext
}

// concreteBinOp evaluates an operation the solver does not model (on
// floats, strings, ...) after concretizing its operands.
func (t *thread) concreteBinOp(fr *frame, in *ssa.BinOp, a, b Value, dst int) ctl {
	ca, ok1 := t.concretize(a)
	cb, ok2 := t.concretize(b)
	if !ok1 || !ok2 {
		return t.solverGaveUp(fr, "symbolic value the solver cannot concretize")
	}
	f := binop(in.Op, in.X.Type())
	if f == nil {
		return t.unsupported(fr, "operator "+in.Op.String()+" on "+in.X.Type().String())
	}
	v, err := f(ca, cb)
	if err != "" {
		return t.runtimePanic(fr, err)
	}
	fr.regs[dst] = v
	return ctlNext
}

// symEqual is a == b for values holding symbolic leaves: a bool when it is
// decided without the solver, else a symbolic condition.
func symEqual(a, b Value) Value {
	switch x := a.(type) {
	case Iface:
		y, ok := b.(Iface)
		if !ok || x.T != y.T {
			return false
		}
		if x.T == nil {
			return true
		}
		return symEqual(x.V, y.V)
	case []Value:
		y, ok := b.([]Value)
		if !ok || len(x) != len(y) {
			return false
		}
		var acc Value = true
		for i := range x {
			acc = symAnd(acc, symEqual(x[i], y[i]))
			if acc == false {
				return false
			}
		}
		return acc
	}
	ex, sx := a.(*symExpr)
	ey, sy := b.(*symExpr)
	switch {
	case sx:
		return newSymBin(token.EQL, types.Bool, ex, asSym(b, ex.k))
	case sy:
		return newSymBin(token.EQL, types.Bool, asSym(a, ey.k), ey)
	}
	return equal(a, b)
}

func symAnd(a, b Value) Value {
	switch {
	case a == false || b == false:
		return false
	case a == true:
		return b
	case b == true:
		return a
	}
	return newSymBin(token.LAND, types.Bool, a.(*symExpr), b.(*symExpr))
}

func symNot(v Value) Value {
	if b, ok := v.(bool); ok {
		return !b
	}
	return v.(*symExpr).not()
}

func (t *thread) symUnOp(fr *frame, in *ssa.UnOp, a Value, dst int) ctl {
	k := basicKindOf(in.X.Type())
	x, ok := a.(*symExpr)
	if !ok || !symKind(k) {
		ca, ok := t.concretize(a)
		if !ok {
			return t.solverGaveUp(fr, "symbolic value the solver cannot concretize")
		}
		fr.regs[dst] = unop(in.Op, in.X.Type())(ca)
		return ctlNext
	}
	switch in.Op {
	case token.SUB, token.XOR, token.NOT:
		fr.regs[dst] = newSymUn(in.Op, k, x)
		return ctlNext
	}
	return t.unsupported(fr, "symbolic operation "+in.Op.String())
}

func (t *thread) symConvert(fr *frame, a Value, from, to types.BasicKind, dst int) ctl {
	x, ok := a.(*symExpr)
	if ok && symKind(from) && symKind(to) && from != types.Bool && to != types.Bool {
		fr.regs[dst] = newSymConv(to, x)
		return ctlNext
	}
	ca, ok := t.concretize(a)
	if !ok {
		return t.solverGaveUp(fr, "symbolic value the solver cannot concretize")
	}
	v, ok := convertBasic(ca, from, to)
	if !ok {
		return t.unsupported(fr, fmt.Sprintf("conversion from %s to %s", types.Typ[from], types.Typ[to]))
	}
	fr.regs[dst] = v
	return ctlNext
}

// symbolicBranch is the If op on a non-bool condition: a symbolic one.
func (t *thread) symbolicBranch(fr *frame, cond Value, tb *block, te int, fb *block, fe int) ctl {
	c, ok := cond.(*symExpr)
	if !ok || t.s.data == nil {
		return t.unsupported(fr, "branch on a non-boolean value")
	}
	side, k, ok := t.decide(c)
	if !ok {
		return k
	}
	if side == 1 {
		return t.jump(fr, tb, te)
	}
	return t.jump(fr, fb, fe)
}
