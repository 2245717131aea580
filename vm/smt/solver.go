package smt

/*
#cgo LDFLAGS: -lz3
#include <stdlib.h>
#include <z3.h>
*/
import "C"

import (
	"errors"
	"fmt"
	"runtime"
	"unsafe"
)

// Result is the outcome of a satisfiability check.
type Result int8

// The outcomes of Check.
const (
	Unsat   Result = -1
	Unknown Result = 0
	Sat     Result = 1
)

// String returns "sat", "unsat" or "unknown".
func (r Result) String() string {
	switch r {
	case Sat:
		return "sat"
	case Unsat:
		return "unsat"
	}
	return "unknown"
}

// Solver is an incremental Z3 solver owned by a Context. It holds one
// reference, dropped by Close, by Context.Close, or after the Solver
// becomes unreachable.
type Solver struct {
	c       *Context
	s       C.Z3_solver
	h       handle
	cleanup runtime.Cleanup
	closed  bool
	reason  string // overrides Z3's reason for the last Unknown
}

// NewSolver returns an empty solver with the context's timeout.
func (c *Context) NewSolver() *Solver {
	raw := c.enter()
	s := C.Z3_mk_solver(raw)
	if s == nil {
		panic(c.lastError())
	}
	C.Z3_solver_inc_ref(raw, s)
	h := handle{kindSolver, unsafe.Pointer(s)}
	c.own(h)
	sv := &Solver{c: c, s: s, h: h}
	sv.cleanup = runtime.AddCleanup(sv, enqueue, cleanupArg{r: c.rel, h: h})
	if c.opts.TimeoutMS != 0 {
		sv.SetTimeout(c.opts.TimeoutMS)
	}
	return sv
}

// enter checks that neither the solver nor its context is closed.
func (s *Solver) enter() C.Z3_context {
	raw := s.c.enter()
	if s.closed {
		panic(ErrClosed)
	}
	return raw
}

// Close releases the solver. It is idempotent, and a no-op once the
// context is closed.
func (s *Solver) Close() {
	if s.closed || s.c.raw == nil {
		s.closed = true
		return
	}
	s.c.enter()
	s.closed = true
	s.cleanup.Stop()
	s.c.disown(s.h)
}

// SetTimeout sets the time limit of later checks, in milliseconds;
// 0 removes it.
func (s *Solver) SetTimeout(ms uint) {
	raw := s.enter()
	p := C.Z3_mk_params(raw)
	C.Z3_params_inc_ref(raw, p)
	defer C.Z3_params_dec_ref(raw, p)
	key := C.CString("timeout")
	defer C.free(unsafe.Pointer(key))
	v := C.unsigned(ms)
	if ms == 0 || ms > uint(^C.unsigned(0)) {
		v = ^C.unsigned(0) // Z3's "no limit"
	}
	C.Z3_params_set_uint(raw, p, C.Z3_mk_string_symbol(raw, key), v)
	C.Z3_solver_set_params(raw, s.s, p)
	if err := s.c.lastError(); err != nil {
		panic(err)
	}
}

// Assert adds constraints, each of which must be a bool term.
func (s *Solver) Assert(xs ...*Expr) {
	raw := s.enter()
	for _, x := range xs {
		s.c.check(x)
		mustBool(x.t, "assert")
		C.Z3_solver_assert(raw, s.s, x.a)
	}
}

// Push opens a backtracking scope.
func (s *Solver) Push() {
	raw := s.enter()
	C.Z3_solver_push(raw, s.s)
}

// Pop removes the n innermost scopes and the constraints asserted in
// them. It panics if fewer than n scopes are open.
func (s *Solver) Pop(n int) {
	raw := s.enter()
	if n < 0 || n > s.NumScopes() {
		panic(fmt.Sprintf("smt: Pop(%d) with %d scopes open", n, s.NumScopes()))
	}
	if n > 0 {
		C.Z3_solver_pop(raw, s.s, C.unsigned(n))
	}
}

// NumScopes returns the number of open scopes.
func (s *Solver) NumScopes() int {
	raw := s.enter()
	return int(C.Z3_solver_get_num_scopes(raw, s.s))
}

// Reset removes every constraint and scope.
func (s *Solver) Reset() {
	raw := s.enter()
	C.Z3_solver_reset(raw, s.s)
}

// Check decides whether the asserted constraints are satisfiable. It
// returns Unknown when the timeout expires, on Context.Interrupt, or when
// Z3 gives up; ReasonUnknown then tells why.
func (s *Solver) Check() Result {
	raw := s.enter()
	s.c.beginCheck()
	r := Result(C.Z3_solver_check(raw, s.s))
	return s.endCheck(r)
}

// endCheck turns the result of a check that Interrupt reached into
// Unknown: the interrupt may have landed just after Z3 answered, and
// then Z3 would refuse to produce the model.
func (s *Solver) endCheck(r Result) Result {
	s.reason = ""
	if s.c.endCheck() {
		s.reason = "interrupted"
		return Unknown
	}
	return r
}

// CheckAssuming is Check with the bool terms assumptions assumed true
// for this check only.
func (s *Solver) CheckAssuming(assumptions ...*Expr) Result {
	if len(assumptions) == 0 {
		return s.Check()
	}
	raw := s.enter()
	args := make([]C.Z3_ast, len(assumptions))
	for i, x := range assumptions {
		s.c.check(x)
		mustBool(x.t, "assumption")
		args[i] = x.a
	}
	s.c.beginCheck()
	r := Result(C.Z3_solver_check_assumptions(raw, s.s, C.unsigned(len(args)), &args[0]))
	return s.endCheck(r)
}

// ReasonUnknown explains the last Unknown result.
func (s *Solver) ReasonUnknown() string {
	raw := s.enter()
	if s.reason != "" {
		return s.reason
	}
	return C.GoString(C.Z3_solver_get_reason_unknown(raw, s.s))
}

// String returns the asserted constraints in SMT-LIB syntax.
func (s *Solver) String() string {
	raw := s.enter()
	return C.GoString(C.Z3_solver_to_string(raw, s.s))
}

// Model returns the model found by the last check, which must have
// returned Sat. The model stays valid after later pushes, pops and checks.
func (s *Solver) Model() (*Model, error) {
	raw := s.enter()
	m := C.Z3_solver_get_model(raw, s.s)
	if m == nil {
		err := s.c.lastError()
		if err == nil {
			err = errors.New("smt: no model")
		}
		return nil, err
	}
	C.Z3_model_inc_ref(raw, m)
	h := handle{kindModel, unsafe.Pointer(m)}
	s.c.own(h)
	md := &Model{c: s.c, m: m, h: h}
	md.cleanup = runtime.AddCleanup(md, enqueue, cleanupArg{r: s.c.rel, h: h})
	return md, nil
}

// Model is an assignment of values to constants. It holds one reference,
// dropped by Close, by Context.Close, or after it becomes unreachable.
type Model struct {
	c       *Context
	m       C.Z3_model
	h       handle
	cleanup runtime.Cleanup
	closed  bool
}

func (m *Model) enter() C.Z3_context {
	raw := m.c.enter()
	if m.closed {
		panic(ErrClosed)
	}
	return raw
}

// Close releases the model. It is idempotent, and a no-op once the
// context is closed.
func (m *Model) Close() {
	if m.closed || m.c.raw == nil {
		m.closed = true
		return
	}
	m.c.enter()
	m.closed = true
	m.cleanup.Stop()
	m.c.disown(m.h)
}

// String returns the model's assignments in Z3's syntax.
func (m *Model) String() string {
	raw := m.enter()
	return C.GoString(C.Z3_model_to_string(raw, m.m))
}

// eval evaluates x with model completion (constants the model leaves
// free get a value, consistently across calls) and returns the value.
func (m *Model) eval(x *Expr, want string) (C.Z3_ast, *Expr, error) {
	raw := m.enter()
	m.c.check(x)
	var out C.Z3_ast
	if !bool(C.Z3_model_eval(raw, m.m, x.a, true, &out)) || out == nil {
		err := m.c.lastError()
		if err == nil {
			err = fmt.Errorf("smt: cannot evaluate %s", want)
		}
		return nil, nil, err
	}
	v := m.c.wrap(out, x.t) // keeps out alive while it is read
	return out, v, nil
}

// Uint64 evaluates the integer term x and returns its value v as Go's
// uint64(v) gives it (a negative signed value is sign-extended).
func (m *Model) Uint64(x *Expr) (uint64, error) {
	_, u, err := m.intValue(x)
	return u, err
}

// Int64 evaluates the integer term x and returns its value v as Go's
// int64(v) gives it.
func (m *Model) Int64(x *Expr) (int64, error) {
	i, _, err := m.intValue(x)
	return i, err
}

func (m *Model) intValue(x *Expr) (int64, uint64, error) {
	mustInt(x.t, "integer evaluation")
	out, v, err := m.eval(x, x.t.String())
	if err != nil {
		return 0, 0, err
	}
	raw := m.c.raw
	var u C.uint64_t
	if !bool(C.Z3_is_numeral_ast(raw, out)) || !bool(C.Z3_get_numeral_uint64(raw, out, &u)) {
		return 0, 0, fmt.Errorf("smt: %v evaluated to non-literal %s", x.t, v)
	}
	i, uu := x.t.fromBits(uint64(u))
	return i, uu, nil
}

// Bool evaluates the bool term x.
func (m *Model) Bool(x *Expr) (bool, error) {
	mustBool(x.t, "bool evaluation")
	out, v, err := m.eval(x, "bool")
	if err != nil {
		return false, err
	}
	switch C.Z3_get_bool_value(m.c.raw, out) {
	case C.Z3_L_TRUE:
		return true, nil
	case C.Z3_L_FALSE:
		return false, nil
	}
	return false, fmt.Errorf("smt: bool evaluated to non-literal %s", v)
}
