package smt

/*
#cgo LDFLAGS: -lz3
#include <stdlib.h>
#include <z3.h>
*/
import "C"

import (
	"fmt"
	"go/token"
	"unsafe"
)

// Expr is a term: a Go bool, or a Go fixed-width integer represented as
// a Z3 bit-vector of its width. An Expr is immutable. It holds one Z3
// reference, dropped after the Expr becomes unreachable (see the package
// documentation). Exprs of different contexts must not be mixed.
//
// Methods panic on misuse that Go's type checker would reject (mixing
// types, an integer operator on bool) and on use after Context.Close.
type Expr struct {
	c *Context
	a C.Z3_ast
	t Type
}

// Type returns the Go type the term stands for.
func (x *Expr) Type() Type { return x.t }

// Context returns the context that owns the term.
func (x *Expr) Context() *Context { return x.c }

// String returns the term in SMT-LIB syntax.
func (x *Expr) String() string {
	raw := x.c.enter()
	return C.GoString(C.Z3_ast_to_string(raw, x.a))
}

// ID returns Z3's identifier of the term. Z3 shares structurally equal
// terms, so two live terms of the same width have the same ID exactly
// when they are the same term.
func (x *Expr) ID() uint {
	raw := x.c.enter()
	return uint(C.Z3_get_ast_id(raw, x.a))
}

// Const returns the constant (free variable) named name of type t.
// Constants are identified by name and width: Const("x", Int8) and
// Const("x", Uint8) are the same 8-bit vector viewed with two types.
func (c *Context) Const(name string, t Type) *Expr {
	raw := c.enter()
	s := c.sort(t)
	cs := C.CString(name)
	sym := C.Z3_mk_string_symbol(raw, cs)
	C.free(unsafe.Pointer(cs))
	return c.wrap(C.Z3_mk_const(raw, sym, s), t)
}

// Fresh returns a new constant of type t, distinct from every other
// constant, whose name starts with prefix.
func (c *Context) Fresh(prefix string, t Type) *Expr {
	raw := c.enter()
	s := c.sort(t)
	cs := C.CString(prefix)
	defer C.free(unsafe.Pointer(cs))
	return c.wrap(C.Z3_mk_fresh_const(raw, cs, s), t)
}

// IntVal returns the literal T(v) of integer type t, truncated (wrapped)
// to t's width as a Go conversion of a variable would.
func (c *Context) IntVal(t Type, v int64) *Expr {
	return c.UintVal(t, uint64(v))
}

// UintVal returns the literal T(v) of integer type t, truncated to t's
// width.
func (c *Context) UintVal(t Type, v uint64) *Expr {
	c.enter()
	mustInt(t, "literal")
	return c.lit(t, v)
}

func (c *Context) lit(t Type, v uint64) *Expr {
	return c.wrap(C.Z3_mk_unsigned_int64(c.raw, C.uint64_t(v&t.mask()), c.sort(t)), t)
}

// BoolVal returns the literal b.
func (c *Context) BoolVal(b bool) *Expr {
	raw := c.enter()
	if b {
		return c.wrap(C.Z3_mk_true(raw), Bool)
	}
	return c.wrap(C.Z3_mk_false(raw), Bool)
}

// True returns the literal true.
func (c *Context) True() *Expr { return c.BoolVal(true) }

// False returns the literal false.
func (c *Context) False() *Expr { return c.BoolVal(false) }

// AndAll returns the conjunction of xs (true if xs is empty).
func (c *Context) AndAll(xs ...*Expr) *Expr { return c.nary(true, xs) }

// OrAll returns the disjunction of xs (false if xs is empty).
func (c *Context) OrAll(xs ...*Expr) *Expr { return c.nary(false, xs) }

func (c *Context) nary(and bool, xs []*Expr) *Expr {
	raw := c.enter()
	if len(xs) == 0 {
		if and {
			return c.wrap(C.Z3_mk_true(raw), Bool)
		}
		return c.wrap(C.Z3_mk_false(raw), Bool)
	}
	// A Go slice of C pointers holds no Go pointers, so it may be passed.
	args := make([]C.Z3_ast, len(xs))
	for i, x := range xs {
		c.check(x)
		mustBool(x.t, "and/or")
		args[i] = x.a
	}
	n := C.unsigned(len(args))
	if and {
		return c.wrap(C.Z3_mk_and(raw, n, &args[0]), Bool)
	}
	return c.wrap(C.Z3_mk_or(raw, n, &args[0]), Bool)
}

// Ite returns "if cond then a else b"; a and b must have the same type.
func (c *Context) Ite(cond, a, b *Expr) *Expr {
	c.enter()
	c.check(cond)
	c.check(a)
	c.check(b)
	mustBool(cond.t, "ite condition")
	mustSame(a, b, "ite")
	return c.ite(cond, a, b)
}

func (c *Context) ite(cond, a, b *Expr) *Expr {
	return c.wrap(C.Z3_mk_ite(c.raw, cond.a, a.a, b.a), a.t)
}

// check panics if x belongs to another context.
func (c *Context) check(x *Expr) {
	if x.c != c {
		panic("smt: terms of different contexts mixed")
	}
}

func mustInt(t Type, op string) {
	if !t.IsInt() {
		panic(fmt.Sprintf("smt: %s needs an integer type, have %v", op, t))
	}
}

func mustBool(t Type, op string) {
	if t != Bool {
		panic(fmt.Sprintf("smt: %s needs bool, have %v", op, t))
	}
}

func mustSame(x, y *Expr, op string) {
	if x.t != y.t {
		panic(fmt.Sprintf("smt: mismatched types %v %s %v", x.t, op, y.t))
	}
}

// op names a Z3 term constructor of two arguments.
type op uint8

const (
	opAdd op = iota
	opSub
	opMul
	opSDiv
	opUDiv
	opSRem
	opURem
	opBAnd
	opBOr
	opBXor
	opShl
	opLShr
	opAShr
	opSLt
	opULt
	opSLe
	opULe
	opSGt
	opUGt
	opSGe
	opUGe
	opEq
	opAnd
	opOr
	opXor
	opImplies
)

// mk2 applies a two-argument constructor and returns the new term,
// which the caller must wrap at once.
func (c *Context) mk2(o op, a, b C.Z3_ast) C.Z3_ast {
	r := c.raw
	switch o {
	case opAdd:
		return C.Z3_mk_bvadd(r, a, b)
	case opSub:
		return C.Z3_mk_bvsub(r, a, b)
	case opMul:
		return C.Z3_mk_bvmul(r, a, b)
	case opSDiv:
		return C.Z3_mk_bvsdiv(r, a, b)
	case opUDiv:
		return C.Z3_mk_bvudiv(r, a, b)
	case opSRem:
		return C.Z3_mk_bvsrem(r, a, b)
	case opURem:
		return C.Z3_mk_bvurem(r, a, b)
	case opBAnd:
		return C.Z3_mk_bvand(r, a, b)
	case opBOr:
		return C.Z3_mk_bvor(r, a, b)
	case opBXor:
		return C.Z3_mk_bvxor(r, a, b)
	case opShl:
		return C.Z3_mk_bvshl(r, a, b)
	case opLShr:
		return C.Z3_mk_bvlshr(r, a, b)
	case opAShr:
		return C.Z3_mk_bvashr(r, a, b)
	case opSLt:
		return C.Z3_mk_bvslt(r, a, b)
	case opULt:
		return C.Z3_mk_bvult(r, a, b)
	case opSLe:
		return C.Z3_mk_bvsle(r, a, b)
	case opULe:
		return C.Z3_mk_bvule(r, a, b)
	case opSGt:
		return C.Z3_mk_bvsgt(r, a, b)
	case opUGt:
		return C.Z3_mk_bvugt(r, a, b)
	case opSGe:
		return C.Z3_mk_bvsge(r, a, b)
	case opUGe:
		return C.Z3_mk_bvuge(r, a, b)
	case opEq:
		return C.Z3_mk_eq(r, a, b)
	case opAnd, opOr:
		args := [2]C.Z3_ast{a, b}
		if o == opAnd {
			return C.Z3_mk_and(r, 2, &args[0])
		}
		return C.Z3_mk_or(r, 2, &args[0])
	case opXor:
		return C.Z3_mk_xor(r, a, b)
	case opImplies:
		return C.Z3_mk_implies(r, a, b)
	}
	panic("smt: unknown op")
}

// binInt checks an integer binary operator and applies the signed or
// unsigned constructor.
func (x *Expr) binInt(y *Expr, name string, signed, unsigned op, result Type) *Expr {
	c := x.c
	c.enter()
	c.check(y)
	mustInt(x.t, name)
	mustSame(x, y, name)
	o := unsigned
	if x.t.Signed() {
		o = signed
	}
	if result == 0 {
		result = x.t
	}
	return c.wrap(c.mk2(o, x.a, y.a), result)
}

// Add returns x + y, wrapping around on overflow.
func (x *Expr) Add(y *Expr) *Expr { return x.binInt(y, "+", opAdd, opAdd, 0) }

// Sub returns x - y, wrapping around on overflow.
func (x *Expr) Sub(y *Expr) *Expr { return x.binInt(y, "-", opSub, opSub, 0) }

// Mul returns x * y, wrapping around on overflow.
func (x *Expr) Mul(y *Expr) *Expr { return x.binInt(y, "*", opMul, opMul, 0) }

// Quo returns x / y, truncated toward zero as in Go; MinInt / -1 wraps
// to MinInt. Go panics when y == 0; the term then has SMT-LIB's value
// (all ones for unsigned; -1 for signed x >= 0 and 1 for x < 0), so
// callers must guard against a zero divisor separately.
func (x *Expr) Quo(y *Expr) *Expr { return x.binInt(y, "/", opSDiv, opUDiv, 0) }

// Rem returns x % y as in Go: the sign follows x, and MinInt % -1 is 0.
// For y == 0 (a panic in Go) the term equals x.
func (x *Expr) Rem(y *Expr) *Expr { return x.binInt(y, "%", opSRem, opURem, 0) }

// And returns x & y for integers and x && y for bools.
func (x *Expr) And(y *Expr) *Expr {
	if x.t == Bool {
		return x.binBool(y, "&&", opAnd)
	}
	return x.binInt(y, "&", opBAnd, opBAnd, 0)
}

// Or returns x | y for integers and x || y for bools.
func (x *Expr) Or(y *Expr) *Expr {
	if x.t == Bool {
		return x.binBool(y, "||", opOr)
	}
	return x.binInt(y, "|", opBOr, opBOr, 0)
}

// Xor returns x ^ y for integers and x != y for bools.
func (x *Expr) Xor(y *Expr) *Expr {
	if x.t == Bool {
		return x.binBool(y, "xor", opXor)
	}
	return x.binInt(y, "^", opBXor, opBXor, 0)
}

// AndNot returns x &^ y.
func (x *Expr) AndNot(y *Expr) *Expr {
	c := x.c
	c.enter()
	c.check(y)
	mustInt(x.t, "&^")
	mustSame(x, y, "&^")
	ny := c.wrap(C.Z3_mk_bvnot(c.raw, y.a), y.t)
	return c.wrap(c.mk2(opBAnd, x.a, ny.a), x.t)
}

// Implies returns x => y for bools.
func (x *Expr) Implies(y *Expr) *Expr { return x.binBool(y, "=>", opImplies) }

func (x *Expr) binBool(y *Expr, name string, o op) *Expr {
	c := x.c
	c.enter()
	c.check(y)
	mustBool(x.t, name)
	mustSame(x, y, name)
	return c.wrap(c.mk2(o, x.a, y.a), Bool)
}

// Neg returns -x, wrapping around for MinInt.
func (x *Expr) Neg() *Expr {
	c := x.c
	c.enter()
	mustInt(x.t, "unary -")
	return c.wrap(C.Z3_mk_bvneg(c.raw, x.a), x.t)
}

// Not returns ^x (bitwise complement) for integers and !x for bools.
func (x *Expr) Not() *Expr {
	c := x.c
	c.enter()
	if x.t == Bool {
		return c.wrap(C.Z3_mk_not(c.raw, x.a), Bool)
	}
	mustInt(x.t, "^")
	return c.wrap(C.Z3_mk_bvnot(c.raw, x.a), x.t)
}

// Eq returns x == y; x and y must have the same type (bool or integer).
func (x *Expr) Eq(y *Expr) *Expr {
	c := x.c
	c.enter()
	c.check(y)
	mustSame(x, y, "==")
	return c.wrap(c.mk2(opEq, x.a, y.a), Bool)
}

// Ne returns x != y.
func (x *Expr) Ne(y *Expr) *Expr {
	c := x.c
	c.enter()
	c.check(y)
	mustSame(x, y, "!=")
	eq := c.wrap(c.mk2(opEq, x.a, y.a), Bool)
	return c.wrap(C.Z3_mk_not(c.raw, eq.a), Bool)
}

// Lt returns x < y, compared signed or unsigned by x's type.
func (x *Expr) Lt(y *Expr) *Expr { return x.binInt(y, "<", opSLt, opULt, Bool) }

// Le returns x <= y.
func (x *Expr) Le(y *Expr) *Expr { return x.binInt(y, "<=", opSLe, opULe, Bool) }

// Gt returns x > y.
func (x *Expr) Gt(y *Expr) *Expr { return x.binInt(y, ">", opSGt, opUGt, Bool) }

// Ge returns x >= y.
func (x *Expr) Ge(y *Expr) *Expr { return x.binInt(y, ">=", opSGe, opUGe, Bool) }

// Shl returns x << s with Go's semantics: s may have any integer type
// and width, its bits are read as unsigned, and a count >= x's width
// gives 0. (Go panics on a negative signed count; callers must guard
// against that separately. Here such a count reads as a huge one.)
func (x *Expr) Shl(s *Expr) *Expr { return x.shift(s, "<<") }

// Shr returns x >> s with Go's semantics: arithmetic for signed x and
// logical for unsigned x; a count >= x's width gives 0, or -1 for a
// negative signed x. The count is read as for Shl.
func (x *Expr) Shr(s *Expr) *Expr { return x.shift(s, ">>") }

func (x *Expr) shift(s *Expr, name string) *Expr {
	c := x.c
	c.enter()
	c.check(s)
	mustInt(x.t, name)
	mustInt(s.t, name+" count")
	w, cw := x.t.Bits(), s.t.Bits()
	cu := IntType(cw, false)

	// big: the count, read unsigned at its own width, is >= w. Every
	// width in use (64 at most) fits in the narrowest count (8 bits).
	big := c.wrap(c.mk2(opUGe, s.a, c.lit(cu, uint64(w)).a), Bool)

	// n: the count at x's width. Narrowing only drops bits that are zero
	// whenever big is false.
	n := s
	switch {
	case cw < w:
		n = c.wrap(C.Z3_mk_zero_ext(c.raw, C.unsigned(w-cw), s.a), IntType(w, false))
	case cw > w:
		n = c.wrap(C.Z3_mk_extract(c.raw, C.unsigned(w-1), 0, s.a), IntType(w, false))
	}

	// Go's value for big counts is spelled out with ite rather than left
	// to the SMT-LIB meaning of out-of-range shift counts.
	var shifted, over *Expr
	switch {
	case name == "<<":
		shifted = c.wrap(c.mk2(opShl, x.a, n.a), x.t)
		over = c.lit(x.t, 0)
	case x.t.Signed():
		shifted = c.wrap(c.mk2(opAShr, x.a, n.a), x.t)
		// Sign fill: -1 for negative x, else 0.
		over = c.wrap(c.mk2(opAShr, x.a, c.lit(x.t, uint64(w-1)).a), x.t)
	default:
		shifted = c.wrap(c.mk2(opLShr, x.a, n.a), x.t)
		over = c.lit(x.t, 0)
	}
	return c.ite(big, over, shifted)
}

// Convert returns T(x) for integer types as Go converts: to a wider
// type it sign-extends a signed x and zero-extends an unsigned one, to a
// narrower type it truncates, and between types of one width it keeps
// the bits.
func (x *Expr) Convert(t Type) *Expr {
	c := x.c
	c.enter()
	mustInt(x.t, "conversion")
	mustInt(t, "conversion")
	w, tw := x.t.Bits(), t.Bits()
	switch {
	case tw == w:
		return c.wrap(x.a, t)
	case tw < w:
		return c.wrap(C.Z3_mk_extract(c.raw, C.unsigned(tw-1), 0, x.a), t)
	case x.t.Signed():
		return c.wrap(C.Z3_mk_sign_ext(c.raw, C.unsigned(tw-w), x.a), t)
	default:
		return c.wrap(C.Z3_mk_zero_ext(c.raw, C.unsigned(tw-w), x.a), t)
	}
}

// Simplify returns an equivalent, usually smaller, term, using Z3's
// rewriter. A term built only from literals simplifies to a literal.
// Should Z3 fail to simplify (it was cancelled), x itself is returned.
func (x *Expr) Simplify() *Expr {
	c := x.c
	c.enter()
	a := C.Z3_simplify(c.raw, x.a)
	if a == nil {
		return x
	}
	return c.wrap(a, x.t)
}

// IntLiteral reports whether x is an integer literal and, if so, its
// value as Go's int64(v) and uint64(v) would give it. Terms are not
// simplified first; see Simplify.
func (x *Expr) IntLiteral() (i int64, u uint64, ok bool) {
	c := x.c
	raw := c.enter()
	if !x.t.IsInt() || !bool(C.Z3_is_numeral_ast(raw, x.a)) {
		return 0, 0, false
	}
	var v C.uint64_t
	if !bool(C.Z3_get_numeral_uint64(raw, x.a, &v)) {
		return 0, 0, false
	}
	i, u = x.t.fromBits(uint64(v))
	return i, u, true
}

// BoolLiteral reports whether x is the literal true or false, and which.
func (x *Expr) BoolLiteral() (v, ok bool) {
	raw := x.c.enter()
	if x.t != Bool {
		return false, false
	}
	switch C.Z3_get_bool_value(raw, x.a) {
	case C.Z3_L_TRUE:
		return true, true
	case C.Z3_L_FALSE:
		return false, true
	}
	return false, false
}

// Binary applies the Go binary operator op: one of + - * / % & | ^ &^
// << >> == != < <= > >= && ||. It panics on any other token.
func (x *Expr) Binary(o token.Token, y *Expr) *Expr {
	switch o {
	case token.ADD:
		return x.Add(y)
	case token.SUB:
		return x.Sub(y)
	case token.MUL:
		return x.Mul(y)
	case token.QUO:
		return x.Quo(y)
	case token.REM:
		return x.Rem(y)
	case token.AND:
		mustInt(x.t, "&")
		return x.And(y)
	case token.OR:
		mustInt(x.t, "|")
		return x.Or(y)
	case token.XOR:
		mustInt(x.t, "^")
		return x.Xor(y)
	case token.AND_NOT:
		return x.AndNot(y)
	case token.SHL:
		return x.Shl(y)
	case token.SHR:
		return x.Shr(y)
	case token.EQL:
		return x.Eq(y)
	case token.NEQ:
		return x.Ne(y)
	case token.LSS:
		return x.Lt(y)
	case token.LEQ:
		return x.Le(y)
	case token.GTR:
		return x.Gt(y)
	case token.GEQ:
		return x.Ge(y)
	case token.LAND:
		mustBool(x.t, "&&")
		return x.And(y)
	case token.LOR:
		mustBool(x.t, "||")
		return x.Or(y)
	}
	panic("smt: unsupported binary operator " + o.String())
}

// Unary applies the Go unary operator op: one of + - ^ !.
func (x *Expr) Unary(o token.Token) *Expr {
	switch o {
	case token.ADD:
		mustInt(x.t, "unary +")
		return x
	case token.SUB:
		return x.Neg()
	case token.XOR:
		mustInt(x.t, "^")
		return x.Not()
	case token.NOT:
		mustBool(x.t, "!")
		return x.Not()
	}
	panic("smt: unsupported unary operator " + o.String())
}
