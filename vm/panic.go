package vm

import (
	"fmt"
	"go/types"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"

	"github.com/gmc-go/gmc/vm/loc"
)

// doPanic starts a panic with value val in the top frame fr.
func (t *thread) doPanic(fr *frame, val Value) ctl {
	g := t.g
	g.panic = &panicState{val: val, link: g.panic, pos: t.locOf(fr), stack: fr}
	fr.unwinding = true
	return ctlFrame
}

// runtimePanic panics with a runtime error whose message is "runtime error: "+msg.
func (t *thread) runtimePanic(fr *frame, msg string) ctl {
	return t.doPanic(fr, Iface{T: t.m.rtError, V: "runtime error: " + msg})
}

// plainPanic panics with a runtime error value printed without the
// "runtime error: " prefix (interface conversions, sync misuse).
func (t *thread) plainPanic(fr *frame, msg string) ctl {
	return t.doPanic(fr, Iface{T: t.m.rtError, V: msg})
}

// fatal ends the program with a fatal error (not recoverable), as the
// runtime's throw does ("fatal error: sync: unlock of unlocked mutex").
func (t *thread) fatal(fr *frame, kind Kind, msg string) ctl {
	t.s.fail(&Error{Kind: kind, Msg: "fatal error: " + msg, Pos: t.posOf(fr), Loc: t.locOf(fr)})
	return ctlStop
}

// unsupported stops the run: the program uses something gmc does not model.
// Reached inside the standard library (os running from its source calls
// a syscall that is not modelled), it names the standard-library function
// the program called and the program's call of it: "... in os.Pipe at
// main.go:6".
func (t *thread) unsupported(fr *frame, what string) ctl {
	if u, via := t.m.userFrame(fr); u != nil && u != fr {
		fr, what = u, what+" in "+via
	}
	pos := t.posOf(fr)
	t.s.fail(&Error{Kind: KindUnsupported, Msg: fmt.Sprintf("unsupported: %s at %s", what, pos), Pos: pos, Loc: t.locOf(fr)})
	return ctlStop
}

// userFrame returns the innermost frame of fr's stack that runs code
// outside the standard library, and the function of the frame it called
// (nil when every frame is the standard library's).
func (m *Machine) userFrame(fr *frame) (*frame, string) {
	goroot := filepath.Join(runtime.GOROOT(), "src") + string(filepath.Separator)
	via := ""
	for f := fr; f != nil; f = f.caller {
		if f.fn == nil || f.fn.ssa == nil {
			continue
		}
		pos := m.prog.Fset.Position(f.fn.ssa.Pos())
		if !pos.IsValid() {
			continue // a synthetic wrapper
		}
		if !strings.HasPrefix(pos.Filename, goroot) && !cgoGenerated(f.fn.ssa) {
			return f, via
		}
		via = f.fn.ssa.String()
		if n := f.fn.ssa.Name(); strings.HasPrefix(n, "_Cfunc_") {
			via = "C." + strings.TrimPrefix(n, "_Cfunc_") // cgo.go
		}
	}
	return nil, ""
}

// goexit starts runtime.Goexit: deferred calls run, then the goroutine ends.
func (t *thread) goexit(fr *frame) ctl {
	t.g.panic = &panicState{goexit: true, link: t.g.panic}
	fr.unwinding = true
	return ctlFrame
}

// unwind runs deferred calls of the panicking goroutine, frame by frame,
// until a deferred call recovers or the stack is empty.
func (t *thread) unwind() ctl {
	g := t.g
	for {
		fr := t.own(g.top)
		g.top = fr
		if fr == nil {
			return t.goroutineExit()
		}
		if fr.boundary {
			return ctlStop
		}
		if fr.fn == nil { // native continuation: abandoned
			if p := g.panic; fr.runner && p != nil && p.goexit {
				g.panic = p.link // the test (or a cleanup) ended: the runner goes on
				return fr.cont(t, nil)
			}
			if fr.pc == pcUnwound { // (callContUnwound)
				fr.cont(t, unwoundRes{})
			}
			g.top = fr.caller
			continue
		}
		fr.unwinding = true
		if d := fr.defers; d != nil {
			if c, done := t.callDeferred(fr, d); !done {
				return c
			}
			continue
		}
		if p := g.panic; p != nil && p.recovered && !p.goexit {
			g.panic = p.link
			fr.unwinding = false
			if fr.fn.recover != nil {
				fr.block = fr.fn.recover
				fr.pc = 0
				return ctlJump
			}
			return t.ret(fr, t.zeroResults(fr.fn))
		}
		caller := t.own(fr.caller)
		g.top = caller
		if caller != nil && caller.fn != nil {
			caller.unwinding = true
		}
	}
}

// callDeferred pops d from fr and runs it. done reports that d ran to
// completion without leaving the frame (a native); otherwise c is the
// control to return (a pushed frame, a yield or a block).
func (t *thread) callDeferred(fr *frame, d *deferred) (c ctl, done bool) {
	cl, _ := d.fn.(*Closure)
	if cl == nil {
		fr.defers = d.next
		return t.runtimePanic(fr, "invalid memory address or nil pointer dereference"), false
	}
	nat := cl.Native
	if nat == nil {
		if cf := t.m.compile(cl.Fn); cf.native != nil {
			nat = cf.native
		} else {
			if cf.blocks == nil {
				fr.defers = d.next
				return t.unsupported(fr, "deferred call of "+cl.Fn.String()), false
			}
			fr.defers = d.next
			nf := t.pushFrame(fr, cf, cl.Env, cl.callArgs(d.args), -1, false)
			nf.isDefer = true
			return ctlFrame, false
		}
	}
	args := d.args
	if cl.Bound != nil {
		args = append([]Value{cl.Bound}, args...)
	}
	visible := nat.isVisible(t, args)
	if visible && t.yieldBefore() {
		return ctlYield, false
	}
	fr.defers = d.next
	if visible {
		t.touchArgs(nat, args) // the footprint, as runNative records it
	}
	if t.m.opts.Payload != nil && !t.checkNativeArgs(nat, args) {
		return t.payloadFail(fr), false
	}
	_, k := nat.fn(t, args)
	switch k {
	case ctlNext:
		return ctlNext, true
	case ctlBlock, ctlYield:
		fr.defers = d // retry when the goroutine runs again
		return k, false
	}
	return k, false
}

func (t *thread) zeroResults(cf *function) Value {
	res := cf.ssa.Signature.Results()
	switch res.Len() {
	case 0:
		return nil
	case 1:
		return t.m.types.get(res.At(0).Type()).Zero()
	}
	tup := make(Tuple, res.Len())
	for i := range tup {
		tup[i] = t.m.types.get(res.At(i).Type()).Zero()
	}
	return tup
}

// doRecover implements the recover builtin called in frame fr.
func (t *thread) doRecover(fr *frame) Value {
	g := t.g
	p := g.panic
	if p == nil || p.recovered || p.goexit || !fr.isDefer || fr.caller == nil || !fr.caller.unwinding {
		return Iface{}
	}
	np := *p
	np.recovered = true
	g.panic = &np
	return p.val
}

// panicError describes an unrecovered panic as Go prints it.
func (t *thread) panicError(p *panicState) *Error {
	var msgs []string
	for q := p; q != nil; q = q.link {
		if q.goexit {
			continue
		}
		m := t.describePanicValue(q.val)
		if q.recovered {
			m += " [recovered]"
		}
		msgs = append([]string{m}, msgs...)
	}
	msg := "panic: " + strings.Join(msgs, "\n\tpanic: ")
	if iv, ok := p.val.(Iface); ok && iv.T == t.m.rtError {
		if s, _ := iv.V.(string); strings.HasPrefix(s, "runtime error: ") && strings.Contains(s, "nil pointer") {
			msg += "\n[signal SIGSEGV: segmentation violation]"
		}
	}
	return &Error{Kind: KindPanic, Msg: msg, Pos: t.s.m.position(p.pos), Loc: p.pos}
}

// describePanicValue prints a panic value as the runtime's printpanicval.
func (t *thread) describePanicValue(v Value) string {
	iv, ok := v.(Iface)
	if !ok {
		return fmt.Sprint(v)
	}
	if iv.T == nil {
		return "nil"
	}
	if iv.T == t.m.rtError {
		return iv.V.(string)
	}
	if s, ok := t.callStringMethod(iv, "Error"); ok {
		return s
	}
	if s, ok := t.callStringMethod(iv, "String"); ok {
		return s
	}
	named := iv.T.String()
	switch x := iv.V.(type) {
	case string:
		if named == "string" {
			return x
		}
		return named + "(" + strconv.Quote(x) + ")"
	case bool, int, int8, int16, int32, int64, uint, uint8, uint16, uint32, uint64, uintptr:
		if _, isBasic := iv.T.T.(*types.Basic); isBasic {
			return fmt.Sprint(x)
		}
		return fmt.Sprintf("%s(%v)", named, x)
	case float32, float64:
		s := printFloat(toFloat64(x))
		if _, isBasic := iv.T.T.(*types.Basic); isBasic {
			return s
		}
		return named + "(" + s + ")"
	}
	return fmt.Sprintf("(%s) %s", named, t.m.addrString(iv.V))
}

// callStringMethod calls the niladic string method name of iv's dynamic type, if any.
func (t *thread) callStringMethod(iv Iface, name string) (string, bool) {
	m := iv.T.methodByName(name)
	if m == nil {
		return "", false
	}
	v, ok := t.syncCall(m, []Value{iv.V})
	if !ok {
		return "", false
	}
	s, ok := v.(string)
	return s, ok
}

func toFloat64(v Value) float64 {
	switch x := v.(type) {
	case float32:
		return float64(x)
	case float64:
		return x
	}
	return 0
}

func (t *thread) locOf(fr *frame) loc.Loc {
	for f := fr; f != nil; f = f.caller {
		if f.fn != nil && f.block != nil {
			return loc.Loc{Fn: f.fn.ssa, Block: f.block.index, Index: f.block.first + int(f.pc)}
		}
	}
	return loc.Loc{}
}

func (t *thread) posOf(fr *frame) string { return t.m.position(t.locOf(fr)) }
