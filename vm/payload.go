package vm

import (
	"fmt"
	"go/token"
	"go/types"
	"strings"
	"sync"

	"golang.org/x/tools/go/ssa"
)

// This file holds the payload abstraction (Options.Payload): the integer
// results of chosen instructions (the sources) are replaced by an opaque
// value, payloadVal, that names its source and nothing else. Instructions
// that only move a value — stores and loads, calls of interpreted
// functions, returns, φ-nodes, boxing in an interface, channel sends,
// append and copy — move it unchanged; a source's arithmetic on one gives
// its own payload. Any other use (a comparison, an index, a conversion, a
// native's look at it, a panic value, a map key) is a violation: the
// machine records it in the Payload and fails the run, and the search
// that relied on the abstraction is void (gmc confirm drops the source
// and searches again).
//
// Why a search without a violation is sound. Two states that differ only
// in which integers their payloads stand for run, from any schedule, the
// same instructions: every branch, index, synchronization, native call
// and error depends only on values that are not payloads (a use of a
// payload is a violation, and the search saw none along any transition
// it ran; a transition of a merged state runs the same instructions as
// the transition of the state it was merged with, which the search ran).
// So a state stands for every concrete state its payloads abstract, the
// abstract search covers every concrete execution, and "no error within
// bound k" carries over. The abstraction merges states that differ only
// in data nothing reads: the elements that seven goroutines append to a
// list in every order, when no execution compares them.

// Payload configures the payload abstraction of a machine. It is shared by
// the machines of one search (the violations of all of them count).
type Payload struct {
	// Sources are the instructions (binary operations with an integer
	// result, in the code under test) whose results are abstracted.
	Sources []ssa.Instruction
	// OnViolation, when set, is called at each violation (the search is
	// void: gmc confirm cancels it).
	OnViolation func()

	once  sync.Once
	index map[ssa.Instruction]int32
	mu    sync.Mutex
	bad   map[int]bool // the sources of the payloads used; -1: a use not attributable to one
}

func (p *Payload) source(in ssa.Instruction) (int32, bool) {
	p.once.Do(func() {
		p.index = make(map[ssa.Instruction]int32, len(p.Sources))
		for i, s := range p.Sources {
			p.index[s] = int32(i)
		}
	})
	i, ok := p.index[in]
	return i, ok
}

// violate records a use of a payload of source src (-1: unknown).
func (p *Payload) violate(src int) {
	p.mu.Lock()
	if p.bad == nil {
		p.bad = map[int]bool{}
	}
	p.bad[src] = true
	p.mu.Unlock()
	if p.OnViolation != nil {
		p.OnViolation()
	}
}

// Violations returns the sources whose payloads were used (indexes into
// Sources), and whether a use could not be attributed to a source.
func (p *Payload) Violations() (srcs []int, unknown bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for s := range p.bad {
		if s < 0 {
			unknown = true
		} else {
			srcs = append(srcs, s)
		}
	}
	return srcs, unknown
}

// payloadVal is an abstracted integer: the result of source src.
type payloadVal struct{ src int32 }

func (x payloadVal) hashInto(h *hasher) { h.int(int64(x.src)) }

// payloadIn returns the source of a payload v holds (in an aggregate, a
// tuple, an interface or a native closure), or -1.
func payloadIn(v Value) int {
	switch x := v.(type) {
	case payloadVal:
		return int(x.src)
	case []Value:
		for _, c := range x {
			if s := payloadIn(c); s >= 0 {
				return s
			}
		}
	case Tuple:
		for _, c := range x {
			if s := payloadIn(c); s >= 0 {
				return s
			}
		}
	case Iface:
		return payloadIn(x.V)
	case *Closure: // a native's receiver or arguments, which the native will look at
		if x != nil && x.Native != nil {
			if s := payloadIn(x.Bound); s >= 0 {
				return s
			}
			return payloadIn([]Value(x.Env))
		}
	}
	return -1
}

// mayHold reports whether a value of type t may hold a payload in a
// register: an integer, an interface, or an aggregate of them.
func mayHold(t types.Type) bool {
	switch u := t.Underlying().(type) {
	case *types.Basic:
		return u.Info()&types.IsInteger != 0
	case *types.Interface:
		return true
	case *types.Struct:
		for i := 0; i < u.NumFields(); i++ {
			if mayHold(u.Field(i).Type()) {
				return true
			}
		}
	case *types.Array:
		return mayHold(u.Elem())
	case *types.Tuple:
		for i := 0; i < u.Len(); i++ {
			if mayHold(u.At(i).Type()) {
				return true
			}
		}
	}
	return false
}

// movingBuiltins only move their arguments' values (or read no value).
var movingBuiltins = map[string]bool{"append": true, "copy": true, "len": true, "cap": true,
	"close": true, "clear": true, "recover": true, "ssa:wrapnilchk": true}

// Inspected returns the operands of in whose value decides something
// (Options.Payload: a payload there is a violation); the others are only
// moved.
func Inspected(in ssa.Instruction) []ssa.Value { return inspected(in) }

func inspected(in ssa.Instruction) []ssa.Value {
	call := func(cc *ssa.CallCommon) []ssa.Value {
		if b, ok := cc.Value.(*ssa.Builtin); ok && !movingBuiltins[b.Name()] {
			return cc.Args
		}
		return nil // interpreted callees move their arguments; natives are checked when called
	}
	switch x := in.(type) {
	case *ssa.Store, *ssa.Send, *ssa.Return, *ssa.Extract, *ssa.MakeInterface, *ssa.ChangeType,
		*ssa.ChangeInterface, *ssa.Field, *ssa.FieldAddr, *ssa.TypeAssert, *ssa.MakeClosure, *ssa.Alloc,
		*ssa.Jump, *ssa.If, *ssa.RunDefers, *ssa.DebugRef, *ssa.Select, *ssa.Next, *ssa.Range, *ssa.Phi:
		return nil
	case *ssa.UnOp:
		if x.Op == token.MUL || x.Op == token.ARROW {
			return nil // a load, a receive
		}
		return []ssa.Value{x.X}
	case *ssa.Call:
		return call(&x.Call)
	case *ssa.Go:
		return call(&x.Call)
	case *ssa.Defer:
		return call(&x.Call)
	case *ssa.MapUpdate:
		return []ssa.Value{x.Key}
	case *ssa.Lookup:
		return []ssa.Value{x.Index}
	case *ssa.Index:
		return []ssa.Value{x.Index}
	case *ssa.IndexAddr:
		return []ssa.Value{x.Index}
	}
	var ops []ssa.Value
	for _, p := range in.Operands(nil) {
		if p != nil && *p != nil {
			ops = append(ops, *p)
		}
	}
	return ops
}

// payloadOp wraps the op of in for Options.Payload: a payload in an
// inspected operand is a violation; a source's result becomes a payload.
func (c *compiler) payloadOp(in ssa.Instruction, o op) op {
	p := c.m.opts.Payload
	var regs []int
	for _, v := range inspected(in) {
		if mayHold(v.Type()) {
			regs = append(regs, c.reg(v))
		}
	}
	if src, ok := p.source(in); ok {
		if b, isBin := in.(*ssa.BinOp); isBin {
			return sourceOp(p, b, c.reg(b), c.reg(b.X), c.reg(b.Y), src, o)
		}
	}
	if len(regs) == 0 {
		return o
	}
	return func(t *thread, fr *frame) ctl {
		for _, r := range regs {
			if s := payloadIn(fr.regs[r]); s >= 0 {
				return t.payloadUsed(fr, s)
			}
		}
		return o(t, fr)
	}
}

// sourceOp runs a source: its result is a payload of src. A payload
// operand gives the same (the result is a function of abstracted values,
// and wraps around rather than panics), except in a division or a shift,
// which may panic.
func sourceOp(p *Payload, b *ssa.BinOp, dst, x, y int, src int32, o op) op {
	return func(t *thread, fr *frame) ctl {
		sx, sy := payloadIn(fr.regs[x]), payloadIn(fr.regs[y])
		if sx >= 0 || sy >= 0 {
			switch b.Op {
			case token.QUO, token.REM, token.SHL, token.SHR: // may panic, by either operand's value
				return t.payloadUsed(fr, max(sx, sy))
			}
		}
		if sx < 0 && sy < 0 {
			if k := o(t, fr); k != ctlNext {
				return k
			}
		}
		fr.regs[dst] = payloadVal{src: src}
		return ctlNext
	}
}

// payloadUsed records a violation of source src and ends the run.
func (t *thread) payloadUsed(fr *frame, src int) ctl {
	t.m.opts.Payload.violate(src)
	return t.payloadFail(fr)
}

// payloadFail ends the run after a violation.
func (t *thread) payloadFail(fr *frame) ctl {
	pos := t.posOf(fr)
	t.s.fail(&Error{Kind: KindInternal, Msg: fmt.Sprintf("payload abstraction: an abstracted value is used at %s", pos), Pos: pos, Loc: t.locOf(fr)})
	return ctlStop
}

// checkNativeArgs is the payload check of a native's call: a payload
// among its arguments is a violation, and so is one in the memory they
// reach, unless the native reads no more than its own synchronization
// object's cells (their cells are checked when read: cell).
func (t *thread) checkNativeArgs(nf *nativeFunc, args []Value) bool {
	p := t.m.opts.Payload
	for _, a := range args {
		if s := payloadIn(a); s >= 0 {
			p.violate(s)
			return false
		}
	}
	if syncNative(nf.name) {
		return true
	}
	seen := map[ObjID]bool{}
	var work []ObjID
	push := func(v Value) {
		for _, id := range refsOf(v, nil) {
			if id != 0 && !seen[id] {
				seen[id] = true
				work = append(work, id)
			}
		}
	}
	for _, a := range args {
		push(a)
	}
	for len(work) > 0 {
		if len(seen) > 4096 {
			p.violate(-1) // too much memory to tell
			return false
		}
		o := t.s.heap.get(work[len(work)-1])
		work = work[:len(work)-1]
		if o == nil {
			continue
		}
		for c := range o.refCells() {
			if s := payloadIn(c); s >= 0 {
				p.violate(s)
				return false
			}
			push(c)
		}
		if m := o.Map; m != nil {
			for _, e := range m.ents {
				if !e.dead {
					if s := payloadIn(e.k); s >= 0 {
						p.violate(s)
						return false
					}
					if s := payloadIn(e.v); s >= 0 {
						p.violate(s)
						return false
					}
					push(e.k)
					push(e.v)
				}
			}
		}
		if ch := o.Chan; ch != nil {
			for _, v := range ch.buf {
				if s := payloadIn(v); s >= 0 {
					p.violate(s)
					return false
				}
				push(v)
			}
		}
	}
	return true
}

// refsOf appends the objects v references.
func refsOf(v Value, out []ObjID) []ObjID {
	switch x := v.(type) {
	case Pointer:
		out = append(out, x.Obj)
	case Slice:
		out = append(out, x.Obj)
	case Map:
		out = append(out, x.Obj)
	case Chan:
		out = append(out, x.Obj)
	case Iface:
		out = refsOf(x.V, out)
	case []Value:
		for _, c := range x {
			out = refsOf(c, out)
		}
	case Tuple:
		for _, c := range x {
			out = refsOf(c, out)
		}
	case *Closure:
		if x != nil {
			for _, c := range x.Env {
				out = refsOf(c, out)
			}
			out = refsOf(x.Bound, out)
		}
	}
	return out
}

// syncNative reports the natives that read only the cells of the
// synchronization object they are given (sync, sync/atomic: cell checks
// them), the clock and the scheduler, and the testing natives that do
// not format their arguments.
func syncNative(name string) bool {
	n := strings.TrimLeft(name, "(*")
	for _, pre := range []string{"sync.", "sync/atomic.", "runtime.Gosched", "runtime.NumGoroutine", "time.Sleep", "time.Now", "time.Since"} {
		if strings.HasPrefix(n, pre) {
			return true
		}
	}
	if strings.HasPrefix(n, "testing.") {
		for _, f := range []string{"Log", "Error", "Fatal", "Skip"} {
			if strings.Contains(n, ")."+f) || strings.Contains(n, "."+f) {
				return false
			}
		}
		return true
	}
	return false
}
