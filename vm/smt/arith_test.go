package smt

import (
	"fmt"
	"go/token"
	"math/rand/v2"
	"testing"
)

// This file checks the terms against Go's own arithmetic: every case is
// computed by Go on values of the real type, and by Z3 twice, once by
// simplifying a term over literals and once by solving for fresh
// constants pinned to the operands and reading them from a model.

type integer interface {
	~int8 | ~int16 | ~int32 | ~int64 | ~uint8 | ~uint16 | ~uint32 | ~uint64
}

// patterns are bit patterns that hit the edges of every width.
var patterns = []uint64{
	0, 1, 2, 3, 5, 7, 8, 9, 15, 16, 17, 31, 32, 33, 63, 64, 65, 100, 127,
	0x7f, 0x80, 0x81, 0xfe, 0xff, 0x100,
	0x7fff, 0x8000, 0x8001, 0xffff, 0x10000,
	0x7fffffff, 0x80000000, 0x80000001, 0xffffffff, 1 << 32,
	1<<63 - 1, 1 << 63, 1<<63 + 1, ^uint64(0) - 1, ^uint64(0),
	0x0123456789abcdef, 0xdeadbeefcafef00d,
}

// values returns edge values of T (each pattern truncated, and its
// negation), then some random ones, without repeats.
func values[T integer](nrand int) []T {
	var out []T
	seen := map[T]bool{}
	add := func(v T) {
		if !seen[v] {
			seen[v] = true
			out = append(out, v)
		}
	}
	for _, p := range patterns {
		add(T(p))
		add(T(-p))
	}
	r := rand.New(rand.NewPCG(1, uint64(len(out))))
	for range nrand {
		add(T(r.Uint64()))
	}
	return out
}

func typeOf[T integer]() Type {
	switch any(T(0)).(type) {
	case int8:
		return Int8
	case int16:
		return Int16
	case int32:
		return Int32
	case int64:
		return Int64
	case uint8:
		return Uint8
	case uint16:
		return Uint16
	case uint32:
		return Uint32
	case uint64:
		return Uint64
	}
	panic("unreachable")
}

// binRef is Go's result of a binary operator: an int64 (the result v as
// int64(v)) or a bool; ok is false where Go would panic.
type binRef[T integer] struct {
	op  token.Token
	ref func(a, b T) (want any, ok bool)
}

func binops[T integer]() []binRef[T] {
	i := func(v T) (any, bool) { return int64(v), true }
	return []binRef[T]{
		{token.ADD, func(a, b T) (any, bool) { return i(a + b) }},
		{token.SUB, func(a, b T) (any, bool) { return i(a - b) }},
		{token.MUL, func(a, b T) (any, bool) { return i(a * b) }},
		{token.QUO, func(a, b T) (any, bool) {
			if b == 0 {
				return nil, false
			}
			return i(a / b)
		}},
		{token.REM, func(a, b T) (any, bool) {
			if b == 0 {
				return nil, false
			}
			return i(a % b)
		}},
		{token.AND, func(a, b T) (any, bool) { return i(a & b) }},
		{token.OR, func(a, b T) (any, bool) { return i(a | b) }},
		{token.XOR, func(a, b T) (any, bool) { return i(a ^ b) }},
		{token.AND_NOT, func(a, b T) (any, bool) { return i(a &^ b) }},
		{token.EQL, func(a, b T) (any, bool) { return a == b, true }},
		{token.NEQ, func(a, b T) (any, bool) { return a != b, true }},
		{token.LSS, func(a, b T) (any, bool) { return a < b, true }},
		{token.LEQ, func(a, b T) (any, bool) { return a <= b, true }},
		{token.GTR, func(a, b T) (any, bool) { return a > b, true }},
		{token.GEQ, func(a, b T) (any, bool) { return a >= b, true }},
	}
}

// litValue reads the value of a term that simplifies to a literal.
func litValue(t *testing.T, x *Expr) any {
	t.Helper()
	s := x.Simplify()
	if x.Type() == Bool {
		v, ok := s.BoolLiteral()
		if !ok {
			t.Fatalf("%v does not simplify to a bool literal: %v", x, s)
		}
		return v
	}
	i, _, ok := s.IntLiteral()
	if !ok {
		t.Fatalf("%v does not simplify to an integer literal: %v", x, s)
	}
	return i
}

// pinned is a term over constants whose value is forced by assertions.
type pinned struct {
	desc string
	term *Expr
	want any
}

// solveAll checks every case by one satisfiability check: each term is
// bound to a fresh constant whose model value is compared.
func solveAll(t *testing.T, c *Context, s *Solver, cases []pinned) {
	t.Helper()
	rs := make([]*Expr, len(cases))
	for k, pc := range cases {
		rs[k] = c.Fresh("r", pc.term.Type())
		s.Assert(rs[k].Eq(pc.term))
	}
	if r := s.Check(); r != Sat {
		t.Fatalf("check: %v (%s)", r, s.ReasonUnknown())
	}
	m, err := s.Model()
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	for k, pc := range cases {
		var got any
		if rs[k].Type() == Bool {
			got, err = m.Bool(rs[k])
		} else {
			got, err = m.Int64(rs[k])
		}
		if err != nil {
			t.Fatal(err)
		}
		if got != pc.want {
			t.Errorf("solver: %s = %v, Go says %v", pc.desc, got, pc.want)
		}
	}
}

// pin returns a fresh constant of type ty asserted equal to v.
func pin[T integer](c *Context, s *Solver, ty Type, v T) *Expr {
	x := c.Fresh("v", ty)
	s.Assert(x.Eq(c.IntVal(ty, int64(v))))
	return x
}

func testBinary[T integer](t *testing.T) {
	ty := typeOf[T]()
	c := NewContext(Options{})
	defer c.Close()
	vals := values[T](8)
	if testing.Short() {
		vals = vals[:20]
	}
	ops := binops[T]()

	// Literal path: every pair of values.
	n := 0
	for _, a := range vals {
		for _, b := range vals {
			x, y := c.IntVal(ty, int64(a)), c.IntVal(ty, int64(b))
			for _, o := range ops {
				want, ok := o.ref(a, b)
				if !ok {
					continue
				}
				n++
				if got := litValue(t, x.Binary(o.op, y)); got != want {
					t.Errorf("%v(%v) %v %v(%v) = %v, Go says %v", ty, a, o.op, ty, b, got, want)
				}
			}
		}
	}

	// Solver path: pairs of the first values, in one check.
	s := c.NewSolver()
	defer s.Close()
	var cases []pinned
	small := vals[:min(len(vals), 14)]
	for _, a := range small {
		for _, b := range small {
			x, y := pin(c, s, ty, a), pin(c, s, ty, b)
			for _, o := range ops {
				if want, ok := o.ref(a, b); ok {
					cases = append(cases, pinned{fmt.Sprintf("%v(%v) %v %v(%v)", ty, a, o.op, ty, b), x.Binary(o.op, y), want})
				}
			}
		}
	}
	solveAll(t, c, s, cases)
	t.Logf("%v: %d literal cases, %d solver cases", ty, n, len(cases))
}

func testUnary[T integer](t *testing.T) {
	ty := typeOf[T]()
	c := NewContext(Options{})
	defer c.Close()
	s := c.NewSolver()
	defer s.Close()
	ops := []struct {
		op  token.Token
		ref func(a T) int64
	}{
		{token.SUB, func(a T) int64 { return int64(-a) }},
		{token.XOR, func(a T) int64 { return int64(^a) }},
		{token.ADD, func(a T) int64 { return int64(+a) }},
	}
	var cases []pinned
	for _, a := range values[T](16) {
		x := pin(c, s, ty, a)
		for _, o := range ops {
			want := o.ref(a)
			if got := litValue(t, c.IntVal(ty, int64(a)).Unary(o.op)); got != want {
				t.Errorf("%v%v(%v) = %v, Go says %v", o.op, ty, a, got, want)
			}
			cases = append(cases, pinned{fmt.Sprintf("%v%v(%v)", o.op, ty, a), x.Unary(o.op), want})
		}
	}
	solveAll(t, c, s, cases)
}

// shiftCounts are counts around every width, and far beyond.
var shiftCounts = []uint64{0, 1, 3, 7, 8, 9, 15, 16, 17, 31, 32, 33, 63, 64, 65, 100, 127, 128, 200, 255, 256, 257, 1000, 65535, 65536, 1 << 31, 1 << 32, 1<<32 + 1, 1 << 40, 1<<63 - 1, 1 << 63, ^uint64(0)}

// asCount converts the count pattern p to the count type ct as Go would,
// and returns its value, or ok false if it is negative (a Go panic).
func asCount(p uint64, ct Type) (uint64, bool) {
	v := convU(p, ct)
	return uint64(v), v >= 0
}

func testShift[T integer](t *testing.T) {
	ty := typeOf[T]()
	c := NewContext(Options{})
	defer c.Close()
	s := c.NewSolver()
	defer s.Close()
	counts := []Type{Uint8, Uint16, Uint32, Uint64, Int8, Int16, Int32, Int64}
	var cases []pinned
	n := 0
	vals := values[T](4)
	if testing.Short() {
		vals = vals[:16]
	}
	for ai, a := range vals {
		x := c.IntVal(ty, int64(a))
		var px *Expr
		if ai < 12 {
			px = pin(c, s, ty, a)
		}
		for _, ct := range counts {
			for _, p := range shiftCounts {
				k, ok := asCount(p, ct)
				if !ok {
					continue
				}
				sc := c.UintVal(ct, p)
				for _, sh := range []struct {
					op   token.Token
					want int64
				}{{token.SHL, int64(a << k)}, {token.SHR, int64(a >> k)}} {
					n++
					desc := fmt.Sprintf("%v(%v) %v %v(%v)", ty, a, sh.op, ct, k)
					if got := litValue(t, x.Binary(sh.op, sc)); got != sh.want {
						t.Errorf("%s = %v, Go says %v", desc, got, sh.want)
					}
					if px != nil && ct.Bits() <= 16 {
						cases = append(cases, pinned{desc, px.Binary(sh.op, pin(c, s, ct, k)), sh.want})
					}
				}
			}
		}
	}
	solveAll(t, c, s, cases)
	t.Logf("%v: %d literal cases, %d solver cases", ty, n, len(cases))
}

// convI and convU are Go's conversions of a signed or unsigned value to
// the type to, returned as int64(to(v)).
func convI(v int64, to Type) int64 {
	switch to {
	case Int8:
		return int64(int8(v))
	case Int16:
		return int64(int16(v))
	case Int32:
		return int64(int32(v))
	case Int64:
		return v
	case Uint8:
		return int64(uint8(v))
	case Uint16:
		return int64(uint16(v))
	case Uint32:
		return int64(uint32(v))
	case Uint64:
		return int64(uint64(v))
	}
	panic("bad type")
}

func convU(v uint64, to Type) int64 {
	switch to {
	case Int8:
		return int64(int8(v))
	case Int16:
		return int64(int16(v))
	case Int32:
		return int64(int32(v))
	case Int64:
		return int64(v)
	case Uint8:
		return int64(uint8(v))
	case Uint16:
		return int64(uint16(v))
	case Uint32:
		return int64(uint32(v))
	case Uint64:
		return int64(v)
	}
	panic("bad type")
}

var allInts = []Type{Int8, Int16, Int32, Int64, Uint8, Uint16, Uint32, Uint64}

func testConvert[T integer](t *testing.T) {
	ty := typeOf[T]()
	c := NewContext(Options{})
	defer c.Close()
	s := c.NewSolver()
	defer s.Close()
	var cases []pinned
	for _, a := range values[T](16) {
		x := pin(c, s, ty, a)
		for _, to := range allInts {
			var want int64
			if ty.Signed() {
				want = convI(int64(a), to)
			} else {
				want = convU(uint64(a), to)
			}
			desc := fmt.Sprintf("%v(%v(%v))", to, ty, a)
			if got := litValue(t, c.IntVal(ty, int64(a)).Convert(to)); got != want {
				t.Errorf("%s = %v, Go says %v", desc, got, want)
			}
			cases = append(cases, pinned{desc, x.Convert(to), want})
		}
	}
	solveAll(t, c, s, cases)
}

// forEachType runs f's instance for every integer type as a subtest.
func forEachType(t *testing.T, fs ...func(*testing.T)) {
	for i, f := range fs {
		t.Run(allInts[i].String(), func(t *testing.T) {
			t.Parallel()
			f(t)
		})
	}
}

func TestBinaryMatchesGo(t *testing.T) {
	forEachType(t, testBinary[int8], testBinary[int16], testBinary[int32], testBinary[int64],
		testBinary[uint8], testBinary[uint16], testBinary[uint32], testBinary[uint64])
}

func TestUnaryMatchesGo(t *testing.T) {
	forEachType(t, testUnary[int8], testUnary[int16], testUnary[int32], testUnary[int64],
		testUnary[uint8], testUnary[uint16], testUnary[uint32], testUnary[uint64])
}

func TestShiftMatchesGo(t *testing.T) {
	forEachType(t, testShift[int8], testShift[int16], testShift[int32], testShift[int64],
		testShift[uint8], testShift[uint16], testShift[uint32], testShift[uint64])
}

func TestConvertMatchesGo(t *testing.T) {
	forEachType(t, testConvert[int8], testConvert[int16], testConvert[int32], testConvert[int64],
		testConvert[uint8], testConvert[uint16], testConvert[uint32], testConvert[uint64])
}

// TestDivisionEdges spells out the cases the brief singles out, by
// table, on top of the generated ones above.
func TestDivisionEdges(t *testing.T) {
	c := NewContext(Options{})
	defer c.Close()
	tests := []struct {
		ty       Type
		a, b     int64
		quo, rem int64
	}{
		{Int8, -128, -1, -128, 0},
		{Int16, -32768, -1, -32768, 0},
		{Int32, -1 << 31, -1, -1 << 31, 0},
		{Int64, -1 << 63, -1, -1 << 63, 0},
		{Int32, -7, 2, -3, -1},
		{Int32, 7, -2, -3, 1},
		{Int32, -7, -2, 3, -1},
		{Int64, -1, 3, 0, -1},
		{Uint8, 255, 2, 127, 1},
		{Uint64, -1, 10, 1844674407370955161, 5}, // uint64 max
		{Uint32, 7, 255, 0, 7},
	}
	// Division by zero panics in Go; the documented SMT-LIB values.
	tests = append(tests, []struct {
		ty       Type
		a, b     int64
		quo, rem int64
	}{
		{Uint8, 7, 0, 255, 7},
		{Int16, 7, 0, -1, 7},
		{Int16, -7, 0, 1, -7},
	}...)
	for _, tt := range tests {
		a, b := c.IntVal(tt.ty, tt.a), c.IntVal(tt.ty, tt.b)
		if got := litValue(t, a.Quo(b)); got != tt.quo {
			t.Errorf("%v(%d) / %d = %v, want %d", tt.ty, tt.a, tt.b, got, tt.quo)
		}
		if got := litValue(t, a.Rem(b)); got != tt.rem {
			t.Errorf("%v(%d) %% %d = %v, want %d", tt.ty, tt.a, tt.b, got, tt.rem)
		}
	}
}

// TestSymbolicIdentities proves, for all values, facts that hold in Go,
// so that Z3's bit-blaster (not only its rewriter) agrees with the
// encoding: an identity holds iff its negation is unsat.
func TestSymbolicIdentities(t *testing.T) {
	c := NewContext(Options{})
	defer c.Close()
	for _, ty := range allInts {
		x, y := c.Const("x", ty), c.Const("y", ty)
		cnt := c.Const("n", Uint8)
		zero, one := c.IntVal(ty, 0), c.IntVal(ty, 1)
		w := c.UintVal(Uint8, uint64(ty.Bits()))
		facts := []struct {
			name string
			fact *Expr
		}{
			{"x/1", x.Quo(one).Eq(x)},
			{"x<<n == 0 for n >= width", cnt.Ge(w).Implies(x.Shl(cnt).Eq(zero))},
			{"x>>n for n >= width", cnt.Ge(w).Implies(x.Shr(cnt).Eq(
				c.Ite(x.Lt(zero), c.IntVal(ty, -1), zero)))},
			{"x<<1 == x+x", x.Shl(c.UintVal(Uint64, 1)).Eq(x.Add(x))},
			{"^x == -x-1", x.Not().Eq(x.Neg().Sub(one))},
			{"x &^ y == x & ^y", x.AndNot(y).Eq(x.And(y.Not()))},
			{"widen then narrow", x.Convert(Int64).Convert(ty).Eq(x)},
			{"x < y == !(x >= y)", x.Lt(y).Eq(x.Ge(y).Not())},
			// Not Go (it panics) but documented: SMT-LIB's x/0 and x%0.
			{"x/0 and x%0", x.Quo(zero).Eq(c.Ite(x.Ge(zero), c.IntVal(ty, -1), one)).And(x.Rem(zero).Eq(x))},
		}
		if ty.Bits() == 8 {
			// Go: (x / y) * y + x % y == x for y != 0, overflow included.
			// (Wider divisions are too slow to prove symbolically.)
			facts = append(facts, struct {
				name string
				fact *Expr
			}{"div-rem", y.Ne(zero).Implies(x.Quo(y).Mul(y).Add(x.Rem(y)).Eq(x))})
		}
		if ty.Signed() {
			minInt := c.IntVal(ty, -1<<(ty.Bits()-1))
			facts = append(facts,
				struct {
					name string
					fact *Expr
				}{"x/-1 == -x", x.Quo(c.IntVal(ty, -1)).Eq(x.Neg())},
				struct {
					name string
					fact *Expr
				}{"MinInt/-1 == MinInt", minInt.Quo(c.IntVal(ty, -1)).Eq(minInt)},
				struct {
					name string
					fact *Expr
				}{"sign of x%y follows x", y.Ne(zero).Implies(x.Rem(y).Eq(zero).Or(x.Rem(y).Lt(zero).Eq(x.Lt(zero))))},
			)
		} else {
			facts = append(facts, struct {
				name string
				fact *Expr
			}{"x >= 0", x.Ge(zero)})
		}
		for _, f := range facts {
			s := c.NewSolver()
			s.SetTimeout(60000) // fail rather than hang on a slow machine
			s.Assert(f.fact.Not())
			if r := s.Check(); r != Unsat {
				t.Errorf("%v: %s: negation is %v, want unsat", ty, f.name, r)
			}
			s.Close()
		}
	}
}
