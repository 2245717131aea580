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
	"strconv"
	"sync"
	"sync/atomic"
	"unsafe"
)

// Options configures a Context.
type Options struct {
	// TimeoutMS is the per-check time limit, in milliseconds, given to
	// every Solver made by the context. Zero means no limit. A check that
	// runs out of time returns Unknown.
	TimeoutMS uint
}

// ErrClosed is returned (or carried by a panic) when a closed Context, or
// a Solver or Model whose Context or self was closed, is used.
var ErrClosed = errors.New("smt: use of closed context, solver or model")

// Context owns one Z3 context (made with Z3_mk_context_rc) and every
// term, solver and model made from it. It must be closed with Close.
//
// A Context and everything made from it may be used by one goroutine at a
// time; only Interrupt may be called concurrently with other methods.
type Context struct {
	// raw is nil once the context is closed.
	raw C.Z3_context
	// mu guards raw against Close racing with Interrupt, and the two
	// flags below, which let Interrupt act only while a check runs: Z3's
	// cancel flag is sticky, and one raised while the context is idle
	// makes later simplifications and model queries fail.
	mu          sync.Mutex
	checking    bool // a Check is in progress
	interrupted bool // Interrupt reached Z3 during that check

	opts Options

	// sorts caches the Bool sort and the bit-vector sorts, each holding
	// one reference that Z3_del_context drops.
	boolSort C.Z3_sort
	bvSorts  [4]C.Z3_sort // 8, 16, 32, 64 bits

	// rel receives objects whose Go wrappers became unreachable; they
	// are released by the goroutine using the context, on its next call.
	rel *releaser

	// objects holds the live solvers, models and parameter sets with
	// the reference each holds, so that Close can drop them: unlike
	// terms, Z3_del_context does not free them.
	objects map[handle]int
}

type handleKind uint8

const (
	kindAST handleKind = iota
	kindSolver
	kindModel
	kindParams
)

// handle is one reference held on a Z3 object.
type handle struct {
	kind handleKind
	p    unsafe.Pointer
}

// releaser is the queue that GC cleanups push onto. Cleanups run on a
// runtime goroutine, which must never call Z3 (a Z3 context is not
// thread-safe), so they only append here; the owner drains the queue.
type releaser struct {
	mu      sync.Mutex
	closed  bool
	pending []handle
	n       atomic.Int32 // len(pending), read without the lock

	// live counts references held by Go wrappers (for tests and Stats).
	live atomic.Int64
}

// cleanupArg is what a GC cleanup needs; it must not point to the
// wrapper whose cleanup it is.
type cleanupArg struct {
	r *releaser
	h handle
}

func (a cleanupArg) enqueue() {
	r := a.r
	r.mu.Lock()
	if !r.closed {
		r.pending = append(r.pending, a.h)
		r.n.Store(int32(len(r.pending)))
	}
	r.mu.Unlock()
}

func enqueue(a cleanupArg) { a.enqueue() }

// NewContext makes a Context. It must be closed with Close.
func NewContext(opts Options) *Context {
	cfg := C.Z3_mk_config()
	setParam := func(k, v string) {
		ck, cv := C.CString(k), C.CString(v)
		C.Z3_set_param_value(cfg, ck, cv)
		C.free(unsafe.Pointer(ck))
		C.free(unsafe.Pointer(cv))
	}
	setParam("model", "true")
	raw := C.Z3_mk_context_rc(cfg)
	C.Z3_del_config(cfg)
	if raw == nil {
		panic("smt: Z3_mk_context_rc failed")
	}
	// The default handler prints and exits the process; with none,
	// errors are only recorded and this package checks for them.
	C.Z3_set_error_handler(raw, nil)

	c := &Context{
		raw:     raw,
		opts:    opts,
		rel:     &releaser{},
		objects: make(map[handle]int),
	}
	c.boolSort = C.Z3_mk_bool_sort(raw)
	C.Z3_inc_ref(raw, C.Z3_sort_to_ast(raw, c.boolSort))
	for i, w := range []C.unsigned{8, 16, 32, 64} {
		s := C.Z3_mk_bv_sort(raw, w)
		C.Z3_inc_ref(raw, C.Z3_sort_to_ast(raw, s))
		c.bvSorts[i] = s
	}
	return c
}

// Close frees the Z3 context and everything made from it. Terms, solvers
// and models of a closed context must not be used (they panic with
// ErrClosed). Close is idempotent.
func (c *Context) Close() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.raw == nil {
		return
	}
	r := c.rel
	r.mu.Lock()
	r.closed = true
	r.pending = nil
	r.n.Store(0)
	r.mu.Unlock()
	for h, n := range c.objects {
		for range n {
			c.decRef(h)
		}
	}
	c.objects = nil
	// Every term reference still held dies with the context.
	r.live.Store(0)
	C.Z3_del_context(c.raw)
	c.raw = nil
}

// Interrupt makes a Check running on this context stop and return
// Unknown, with ReasonUnknown "interrupted". It is the only method that
// may be called from another goroutine while the context is in use. When
// no check is running, or the context is closed, it does nothing.
func (c *Context) Interrupt() {
	c.mu.Lock()
	if c.raw != nil && c.checking {
		C.Z3_interrupt(c.raw)
		c.interrupted = true
	}
	c.mu.Unlock()
}

func (c *Context) beginCheck() {
	c.mu.Lock()
	c.checking, c.interrupted = true, false
	c.mu.Unlock()
}

// endCheck reports whether Interrupt reached Z3 during the check.
func (c *Context) endCheck() bool {
	c.mu.Lock()
	i := c.interrupted
	c.checking, c.interrupted = false, false
	c.mu.Unlock()
	return i
}

// Options returns the options the context was made with.
func (c *Context) Options() Options { return c.opts }

// Stats reports resource use of a context.
type Stats struct {
	// LiveRefs is the number of Z3 references held by Go wrappers (terms,
	// solvers, models) that have not been released yet. Wrappers that
	// became unreachable are released lazily, after a garbage collection,
	// by the next call on the context.
	LiveRefs int64
}

// Stats returns resource counters; it first releases what is pending.
func (c *Context) Stats() Stats {
	c.enter()
	return Stats{LiveRefs: c.rel.live.Load()}
}

// enter is called at the start of every operation: it panics if the
// context is closed and releases what GC cleanups have queued.
func (c *Context) enter() C.Z3_context {
	if c.raw == nil {
		panic(ErrClosed)
	}
	if c.rel.n.Load() != 0 {
		c.drain()
	}
	return c.raw
}

func (c *Context) drain() {
	r := c.rel
	r.mu.Lock()
	pending := r.pending
	r.pending = nil
	r.n.Store(0)
	r.mu.Unlock()
	for _, h := range pending {
		if h.kind == kindAST {
			c.decRef(h)
		} else {
			c.disown(h)
		}
	}
}

func (c *Context) decRef(h handle) {
	switch h.kind {
	case kindAST:
		C.Z3_dec_ref(c.raw, C.Z3_ast(h.p))
	case kindSolver:
		C.Z3_solver_dec_ref(c.raw, C.Z3_solver(h.p))
	case kindModel:
		C.Z3_model_dec_ref(c.raw, C.Z3_model(h.p))
	case kindParams:
		C.Z3_params_dec_ref(c.raw, C.Z3_params(h.p))
	}
	c.rel.live.Add(-1)
}

// own records a reference just taken on a solver, model or params object.
func (c *Context) own(h handle) {
	c.objects[h]++
	c.rel.live.Add(1)
}

// disown drops a reference recorded by own, if it is still held.
func (c *Context) disown(h handle) {
	n := c.objects[h]
	if n == 0 {
		return
	}
	if n == 1 {
		delete(c.objects, h)
	} else {
		c.objects[h] = n - 1
	}
	c.decRef(h)
}

// lastError returns the error recorded by the last Z3 call, if any.
func (c *Context) lastError() error {
	code := C.Z3_get_error_code(c.raw)
	if code == C.Z3_OK {
		return nil
	}
	return fmt.Errorf("smt: z3 error %d: %s", int(code), C.GoString(C.Z3_get_error_msg(c.raw, code)))
}

// mustAST panics if a Z3 call that returns a term failed. Term building
// only fails on misuse that the Go-side type checks should have caught.
func (c *Context) mustAST(a C.Z3_ast) C.Z3_ast {
	if a == nil {
		err := c.lastError()
		if err == nil {
			err = errors.New("smt: z3 returned no term")
		}
		panic(err)
	}
	return a
}

func (c *Context) sort(t Type) C.Z3_sort {
	switch t.Bits() {
	case 0:
		return c.boolSort
	case 8:
		return c.bvSorts[0]
	case 16:
		return c.bvSorts[1]
	case 32:
		return c.bvSorts[2]
	case 64:
		return c.bvSorts[3]
	}
	panic("smt: bad type " + strconv.Itoa(int(t)))
}

// wrap takes a reference on a fresh Z3 term and gives it a Go owner.
// It must be called right after the Z3 call that made a, before any
// other call that returns a term (Z3 keeps only the last result alive).
func (c *Context) wrap(a C.Z3_ast, t Type) *Expr {
	c.mustAST(a)
	C.Z3_inc_ref(c.raw, a)
	c.rel.live.Add(1)
	e := &Expr{c: c, a: a, t: t}
	runtime.AddCleanup(e, enqueue, cleanupArg{r: c.rel, h: handle{kindAST, unsafe.Pointer(a)}})
	return e
}
