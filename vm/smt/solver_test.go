package smt

import (
	"errors"
	"go/token"
	"runtime"
	"strings"
	"testing"
	"time"
)

func TestSolveBetween(t *testing.T) {
	tests := []struct {
		ty   Type
		lo   int64
		hi   int64
		want int64
	}{
		{Int8, 18, 20, 19},
		{Int64, 18, 20, 19},
		{Uint32, 18, 20, 19},
		{Int16, -20, -18, -19},
		{Uint8, 253, 255, 254},
		{Int32, -1 << 31, -1<<31 + 2, -1<<31 + 1},
		{Uint64, 1<<63 - 1, -1<<63 + 1, -1 << 63}, // as uint64: 2^63-1 < x < 2^63+1
	}
	c := NewContext(Options{})
	defer c.Close()
	for _, tt := range tests {
		s := c.NewSolver()
		x := c.Const("x", tt.ty)
		s.Assert(x.Gt(c.IntVal(tt.ty, tt.lo)), x.Lt(c.IntVal(tt.ty, tt.hi)))
		r := s.Check()
		if r != Sat {
			t.Fatalf("%v: got %v, want sat", tt.ty, r)
		}
		m, err := s.Model()
		if err != nil {
			t.Fatal(err)
		}
		got, err := m.Int64(x)
		if err != nil {
			t.Fatal(err)
		}
		if got != tt.want {
			t.Errorf("%v: %d < x < %d gives x = %d, want %d", tt.ty, tt.lo, tt.hi, got, tt.want)
		}
		s.Close()
	}
}

func TestUnsat(t *testing.T) {
	c := NewContext(Options{})
	defer c.Close()
	i, u := c.Const("i", Int32), c.Const("u", Uint16)
	zero32, zero16 := c.IntVal(Int32, 0), c.IntVal(Uint16, 0)
	tests := []struct {
		name string
		cs   []*Expr
		want Result
	}{
		{"i<0 && i>0", []*Expr{i.Lt(zero32), i.Gt(zero32)}, Unsat},
		{"u<0", []*Expr{u.Lt(zero16)}, Unsat},
		{"i+1 < i (overflow)", []*Expr{i.Add(c.IntVal(Int32, 1)).Lt(i)}, Sat},
		{"u*2 == 1", []*Expr{u.Mul(c.IntVal(Uint16, 2)).Eq(c.IntVal(Uint16, 1))}, Unsat},
		{"false", []*Expr{c.False()}, Unsat},
		{"nothing", nil, Sat},
	}
	for _, tt := range tests {
		s := c.NewSolver()
		s.Assert(tt.cs...)
		if r := s.Check(); r != tt.want {
			t.Errorf("%s: got %v, want %v", tt.name, r, tt.want)
		}
		s.Close()
	}
}

func TestPushPop(t *testing.T) {
	c := NewContext(Options{})
	defer c.Close()
	s := c.NewSolver()
	defer s.Close()
	x := c.Const("x", Int32)
	s.Assert(x.Gt(c.IntVal(Int32, 18)).And(x.Lt(c.IntVal(Int32, 20))))
	if r := s.Check(); r != Sat {
		t.Fatalf("got %v", r)
	}
	s.Push()
	if s.NumScopes() != 1 {
		t.Fatalf("NumScopes = %d", s.NumScopes())
	}
	s.Assert(x.Ne(c.IntVal(Int32, 19)))
	if r := s.Check(); r != Unsat {
		t.Fatalf("with x != 19: got %v, want unsat", r)
	}
	s.Push()
	s.Push()
	s.Pop(3)
	if s.NumScopes() != 0 {
		t.Fatalf("NumScopes = %d after pops", s.NumScopes())
	}
	if r := s.Check(); r != Sat {
		t.Fatalf("after pop: got %v, want sat", r)
	}
	m, err := s.Model()
	if err != nil {
		t.Fatal(err)
	}
	if v, _ := m.Int64(x); v != 19 {
		t.Errorf("x = %d", v)
	}
	func() {
		defer func() {
			if recover() == nil {
				t.Error("Pop past the outermost scope did not panic")
			}
		}()
		s.Pop(1)
	}()
}

func TestCheckAssuming(t *testing.T) {
	c := NewContext(Options{})
	defer c.Close()
	s := c.NewSolver()
	defer s.Close()
	x := c.Const("x", Uint8)
	s.Assert(x.Gt(c.IntVal(Uint8, 100)))
	small := x.Lt(c.IntVal(Uint8, 50))
	if r := s.CheckAssuming(small); r != Unsat {
		t.Errorf("assuming x < 50: %v", r)
	}
	if r := s.CheckAssuming(); r != Sat {
		t.Errorf("assuming nothing: %v", r)
	}
	if r := s.Check(); r != Sat {
		t.Errorf("after assumption: %v", r)
	}
}

func TestModelValues(t *testing.T) {
	c := NewContext(Options{})
	defer c.Close()
	s := c.NewSolver()
	defer s.Close()
	x := c.Const("x", Int8)
	b := c.Const("b", Bool)
	free := c.Const("free", Uint64) // in no assertion: model completion
	s.Assert(x.Eq(c.IntVal(Int8, -3)), b)
	if r := s.Check(); r != Sat {
		t.Fatal(r)
	}
	m, err := s.Model()
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	if v, err := m.Int64(x); v != -3 || err != nil {
		t.Errorf("Int64(x) = %d, %v", v, err)
	}
	if v, err := m.Uint64(x); v != uint64(0xfffffffffffffffd) || err != nil {
		t.Errorf("Uint64(x) = %#x, %v (want uint64(int8(-3)))", v, err)
	}
	if v, err := m.Uint64(x.Convert(Uint8)); v != 253 || err != nil {
		t.Errorf("Uint64(uint8(x)) = %d, %v", v, err)
	}
	if v, err := m.Bool(b); !v || err != nil {
		t.Errorf("Bool(b) = %v, %v", v, err)
	}
	if v, err := m.Bool(b.Not().Or(x.Lt(c.IntVal(Int8, 0)))); !v || err != nil {
		t.Errorf("Bool(!b || x < 0) = %v, %v", v, err)
	}
	v1, err := m.Uint64(free)
	if err != nil {
		t.Fatalf("free constant: %v", err)
	}
	if v2, _ := m.Uint64(free.Add(c.IntVal(Uint64, 1))); v2 != v1+1 {
		t.Errorf("completion is not consistent: %d then %d", v1, v2)
	}
	if !strings.Contains(m.String(), "x") {
		t.Errorf("model string %q does not mention x", m.String())
	}
}

func TestSameNameSameBits(t *testing.T) {
	c := NewContext(Options{})
	defer c.Close()
	s := c.NewSolver()
	defer s.Close()
	i, u := c.Const("x", Int8), c.Const("x", Uint8)
	s.Assert(i.Eq(c.IntVal(Int8, -1)), u.Ne(c.IntVal(Uint8, 255)))
	if r := s.Check(); r != Unsat {
		t.Errorf("int8 x == -1 && uint8 x != 255: %v", r)
	}
}

// hardFactoring asserts that the 64-bit product of two primes close to
// 2^32 has two factors above 1, without overflow: a search that takes
// Z3 far longer than any timeout used here.
func hardFactoring(c *Context, s *Solver) {
	const p, q = 4294967291, 4294967279
	x, y := c.Const("fx", Uint32), c.Const("fy", Uint32)
	one := c.IntVal(Uint32, 1)
	s.Assert(x.Gt(one), y.Gt(one),
		x.Convert(Uint64).Mul(y.Convert(Uint64)).Eq(c.UintVal(Uint64, p*q)))
}

func TestTimeout(t *testing.T) {
	c := NewContext(Options{TimeoutMS: 1})
	defer c.Close()
	s := c.NewSolver()
	defer s.Close()
	hardFactoring(c, s)
	r := s.Check()
	if r != Unknown {
		t.Fatalf("factoring with a 1ms timeout: %v, want unknown", r)
	}
	if s.ReasonUnknown() == "" {
		t.Error("no reason given for unknown")
	}
	t.Logf("reason: %s", s.ReasonUnknown())

	// The solver stays usable: an easy check after the timed-out one,
	// without a limit (even an easy first check can take over 1ms).
	s.Reset()
	s.SetTimeout(0)
	x := c.Const("x", Int8)
	s.Assert(x.Eq(c.IntVal(Int8, 5)))
	if r := s.Check(); r != Sat {
		t.Errorf("easy check after timeout: %v", r)
	}
	if got := litValue(t, c.IntVal(Int8, 3).Add(c.IntVal(Int8, 4))); got != int64(7) {
		t.Errorf("simplify after timeout: %v", got)
	}
}

func TestInterrupt(t *testing.T) {
	c := NewContext(Options{})
	defer c.Close()
	s := c.NewSolver()
	defer s.Close()
	hardFactoring(c, s)
	done := make(chan Result)
	go func() { done <- s.Check() }()
	// Interrupt until the check gives up; an interrupt that lands before
	// the check starts may be lost, hence the loop.
	var r Result
	tick := time.NewTicker(5 * time.Millisecond)
	defer tick.Stop()
wait:
	for {
		select {
		case r = <-done:
			break wait
		case <-tick.C:
			c.Interrupt()
		}
	}
	if r != Unknown || s.ReasonUnknown() != "interrupted" {
		t.Fatalf("interrupted check: %v (%s), want unknown (interrupted)", r, s.ReasonUnknown())
	}
	// A later check on the same context is not cancelled.
	s2 := c.NewSolver()
	defer s2.Close()
	x := c.Const("x", Int8)
	s2.Assert(x.Eq(c.IntVal(Int8, 5)))
	if r := s2.Check(); r != Sat {
		t.Errorf("check after interrupt: %v (%s)", r, s2.ReasonUnknown())
	}
}

// TestIdleInterrupt checks that an Interrupt while no check runs has no
// effect: Z3's cancel flag would otherwise stay raised and make the next
// simplification and model query fail.
func TestIdleInterrupt(t *testing.T) {
	c := NewContext(Options{})
	defer c.Close()
	s := c.NewSolver()
	defer s.Close()
	x := c.Const("x", Int8)
	s.Assert(x.Eq(c.IntVal(Int8, 5)))
	c.Interrupt()
	if r := s.Check(); r != Sat {
		t.Fatalf("check after idle interrupt: %v", r)
	}
	c.Interrupt()
	m, err := s.Model()
	if err != nil {
		t.Fatalf("model after idle interrupt: %v", err)
	}
	c.Interrupt()
	if v, err := m.Int64(x.Add(x)); v != 10 || err != nil {
		t.Errorf("eval after idle interrupt: %d, %v", v, err)
	}
	c.Interrupt()
	if got := litValue(t, c.IntVal(Int8, 3).Add(c.IntVal(Int8, 4))); got != int64(7) {
		t.Errorf("simplify after idle interrupt: %v", got)
	}
}

func TestSetTimeoutOverrides(t *testing.T) {
	c := NewContext(Options{})
	defer c.Close()
	s := c.NewSolver()
	defer s.Close()
	s.SetTimeout(1)
	hardFactoring(c, s)
	if r := s.Check(); r != Unknown {
		t.Fatalf("got %v, want unknown", r)
	}
}

func mustPanic(t *testing.T, name string, f func()) {
	t.Helper()
	defer func() {
		if recover() == nil {
			t.Errorf("%s did not panic", name)
		}
	}()
	f()
}

func TestMisusePanics(t *testing.T) {
	c := NewContext(Options{})
	x, u := c.Const("x", Int8), c.Const("u", Uint8)
	b := c.Const("b", Bool)
	mustPanic(t, "int8 + uint8", func() { x.Add(u) })
	mustPanic(t, "bool + bool", func() { b.Add(b) })
	mustPanic(t, "int8 < bool", func() { x.Lt(b) })
	mustPanic(t, "assert int", func() { c.NewSolver().Assert(x) })
	mustPanic(t, "convert bool", func() { b.Convert(Int8) })
	mustPanic(t, "bool literal", func() { c.IntVal(Bool, 1) })
	mustPanic(t, "&& on ints", func() { x.Binary(token.LAND, x) })
	other := NewContext(Options{})
	mustPanic(t, "mixed contexts", func() { x.Add(other.Const("x", Int8)) })
	other.Close()

	s := c.NewSolver()
	s.Assert(b)
	s.Check()
	m, _ := s.Model()
	c.Close()
	c.Close() // idempotent
	s.Close() // no-op after the context
	m.Close()
	c.Interrupt() // no-op after Close
	mustPanic(t, "term after Close", func() { x.Add(x) })
	mustPanic(t, "const after Close", func() { c.Const("y", Int8) })
	func() {
		defer func() {
			if r := recover(); r == nil || !errors.Is(r.(error), ErrClosed) {
				t.Errorf("panic after Close = %v, want ErrClosed", r)
			}
		}()
		_ = x.String()
	}()
}

func TestClosedSolverPanics(t *testing.T) {
	c := NewContext(Options{})
	defer c.Close()
	s := c.NewSolver()
	s.Close()
	s.Close()
	mustPanic(t, "check after Close", func() { s.Check() })
}

// TestReleaseUnreachable builds many terms, solvers and models, drops
// them, and checks that the references they held are released once the
// garbage collector has seen them, so a long search does not leak.
func TestReleaseUnreachable(t *testing.T) {
	c := NewContext(Options{})
	defer c.Close()
	base := c.Stats().LiveRefs
	keep := c.Const("keep", Int64)
	for i := range 20000 {
		x := c.Const("x", Int64)
		_ = x.Add(c.IntVal(Int64, int64(i))).Mul(keep).Gt(x)
		if i%2000 == 0 {
			s := c.NewSolver()
			s.Assert(x.Eq(c.IntVal(Int64, int64(i))))
			s.Check()
			s.Model()
		}
	}
	t.Logf("%d references held before collecting", c.Stats().LiveRefs-base)
	var n int64
	for range 200 {
		runtime.GC()
		time.Sleep(time.Millisecond) // let cleanups run
		if n = c.Stats().LiveRefs - base; n <= 10 {
			break
		}
	}
	if n > 10 {
		t.Errorf("%d references still held after collecting", n)
	}
	runtime.KeepAlive(keep)
	// The kept term is still good.
	if keep.String() != "keep" {
		t.Errorf("kept term = %s", keep)
	}
}

func TestSimplifyAndLiterals(t *testing.T) {
	c := NewContext(Options{})
	defer c.Close()
	x := c.Const("x", Int16)
	e := x.Add(c.IntVal(Int16, 0)).Mul(c.IntVal(Int16, 1))
	if got := e.Simplify(); got.ID() != x.ID() {
		t.Errorf("(x+0)*1 simplifies to %s, want x", got)
	}
	if _, _, ok := x.IntLiteral(); ok {
		t.Error("x reported as literal")
	}
	i, u, ok := c.IntVal(Int16, -2).IntLiteral()
	if !ok || i != -2 || u != uint64(0xfffffffffffffffe) {
		t.Errorf("IntLiteral(int16(-2)) = %d, %#x, %v", i, u, ok)
	}
	if v, ok := c.AndAll().BoolLiteral(); !v || !ok {
		t.Error("AndAll() is not true")
	}
	if v, ok := c.OrAll().BoolLiteral(); v || !ok {
		t.Error("OrAll() is not false")
	}
	if v, ok := c.Const("b", Bool).BoolLiteral(); ok {
		t.Errorf("b reported as literal %v", v)
	}
}
