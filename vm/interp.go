package vm

import (
	"fmt"
	"strings"
	"time"

	"golang.org/x/tools/go/ssa"
)

// thread is the context of one transition: the state being built (owned, of
// the current epoch) and the goroutine running in it.
type thread struct {
	m       *Machine
	s       *State
	g       *goroutine
	visible bool // a visible operation (scheduling point) already ran in this transition
	nested  int  // >0 while a native runs VM code synchronously (no yields)
	hidden  bool // the running instruction's accesses are not scheduling points (Options.Invisible)
	// deferring: the operations gc evaluates after a statement's calls
	// run (evalorder.go): their accesses are no scheduling points of their
	// own, but count in the transition's footprint
	deferring bool
	selCase   int // preselected ready case of a select (-1: none)
	branch    int // preselected side of a symbolic branch (-1: none)
	// capUnseen: the running load's []byte is only converted to a string
	// (unsafestrdata.go)
	capUnseen bool
	n         int // instructions executed in this transition
	// deadline: the wall-clock time (Unix ns) at which the transition is
	// cut (Machine.StepWithin; 0: never), read every cutPoll instructions
	deadline int64
	// polled: the goroutine polled in this transition (took a select's
	// default case, called runtime.Gosched, was preempted); see time.go.
	polled bool
	// unlogged: the access being checked is no event of the prediction
	// log (predlog.go: raceLockWord)
	unlogged bool
	// natRes is the register receiving the result of the native being
	// called (-1: none), valid while inNative.
	natRes   int
	inNative bool
}

// maxInstrs bounds a transition without scheduling points; past it the
// goroutine is preempted (a scheduling point, as Go's async preemption) at
// its next jump to a block that does not come later in its function (every
// loop has such a jump, so a loop is preempted at the same place of each
// iteration and a loop that only reads the clock repeats its state: see
// time.go), and at 2*maxInstrs wherever it is.
const maxInstrs = 1 << 20

// cutPoll is how often (in instructions) a transition with a deadline
// reads the clock (Machine.StepWithin). A clock reading costs about as
// much as a few instructions; the instructions of a large program's
// initialization, on a loaded machine, ran at 3–15 µs each (otter's
// generated tables, with the plan's call graph built beside them), so
// 65,536 between readings overshot a 3 s limit by up to 0.5 s.
const cutPoll = 1 << 10

// yieldBefore reports whether the op about to run is a scheduling point that
// must start a new transition; otherwise it marks the transition as having
// executed its visible operation.
func (t *thread) yieldBefore() bool {
	if t.nested > 0 || t.deferring {
		return false
	}
	if t.visible {
		return true
	}
	t.visible = true
	t.s.last.Loc = t.g.loc()
	return false
}

// sharedAccess names the transition's visible operation a read or a write
// of obj (unless it is an operand gc evaluates after its statement's
// calls, which is no visible operation of its own: thread.deferring) and
// records obj in the transition's footprint.
func (t *thread) sharedAccess(obj ObjID, write bool) {
	if !t.deferring {
		if write {
			t.s.last.Op = "write"
		} else {
			t.s.last.Op = "read"
		}
	}
	t.touch(obj, write)
}

// touch records an object accessed by a visible operation.
func (t *thread) touch(obj ObjID, write bool) {
	if t.nested > 0 {
		return
	}
	for i, a := range t.s.fp {
		if a.Obj == obj {
			t.s.fp[i].Write = a.Write || write
			t.s.fp[i].Test = false
			return
		}
	}
	t.s.fp = append(t.s.fp, Access{Obj: obj, Write: write})
}

// touchTest is touch(AllObjects, true) by the testing natives: t.Run,
// t.Parallel and the end of a test function or of a subtest's runner,
// which wake a parent or its subtests (Access.Test).
func (t *thread) touchTest() {
	if t.nested > 0 {
		return
	}
	for i, a := range t.s.fp {
		if a.Obj == AllObjects {
			t.s.fp[i].Write = true
			return
		}
	}
	t.s.fp = append(t.s.fp, Access{Obj: AllObjects, Write: true, Test: true})
}

// own makes f writable in the current epoch.
func (t *thread) own(f *frame) *frame {
	if f == nil || f.epoch == t.s.epoch {
		return f
	}
	return f.clone(t.s.epoch)
}

// runGuarded runs the transition and turns a Go panic of the interpreter
// (a value of an unexpected representation, e.g. after unsafe type punning)
// into an error state naming the location, so gmc itself never crashes.
func (t *thread) runGuarded() {
	defer func() {
		if r := recover(); r != nil {
			if p := t.m.opts.Payload; p != nil {
				p.violate(-1) // a native met a payload, perhaps: the search is void
			}
			l := t.g.loc()
			pos := t.m.position(l)
			if lim, ok := r.(vmLimit); ok {
				t.s.fail(&Error{Kind: KindUnsupported, Msg: fmt.Sprintf("unsupported: %s at %s", lim, pos), Pos: pos, Loc: l})
				return
			}
			t.s.fail(&Error{Kind: KindInternal, Msg: fmt.Sprintf("gmc internal error: %v at %s (unsafe memory reinterpretation or an unmodelled feature)", r, pos), Pos: pos, Loc: l})
		}
	}()
	t.run()
}

// run executes the goroutine until the next scheduling point, block, or end.
func (t *thread) run() {
	t.g.top = t.own(t.g.top)
	for {
		fr := t.g.top
		if fr == nil {
			return
		}
		var c ctl
		b := fr.block
		switch {
		case fr.unwinding:
			c = t.unwind()
		case fr.fn == nil:
			c = fr.cont(t, nil)
		default:
			c = fr.block.code[fr.pc](t, fr)
		}
		switch c {
		case ctlNext:
			if fr.fn != nil {
				fr.pc++
			}
		case ctlJump, ctlFrame:
		default:
			return
		}
		t.n++
		if t.deadline != 0 && t.n&(cutPoll-1) == 0 && time.Now().UnixNano() >= t.deadline {
			t.s.last.Op = opCut
			return
		}
		if t.n >= maxInstrs && t.nested == 0 && (c == ctlJump && b != nil && t.g.top == fr && fr.block.index <= b.index || t.n >= 2*maxInstrs) {
			t.polled = true // it may spin (see time.go)
			return
		}
	}
}

// jump transfers control from fr's current block to succ (index in the
// block's successor list), evaluating the φ-nodes of the target.
func (t *thread) jump(fr *frame, to *block, edge int) ctl {
	if len(to.phis) == 1 {
		p := to.phis[0]
		fr.regs[p.dst] = fr.regs[p.srcs[edge]]
	} else if len(to.phis) > 1 {
		vals := make([]Value, len(to.phis))
		for i, p := range to.phis {
			vals[i] = fr.regs[p.srcs[edge]]
		}
		for i, p := range to.phis {
			fr.regs[p.dst] = vals[i]
		}
	}
	fr.block = to
	fr.pc = 0
	return ctlJump
}

// pushFrame starts a call of cf with args; the caller (fr, may be nil)
// receives the result in register res (-1: none). If advance, the caller
// resumes after the current instruction.
func (t *thread) pushFrame(fr *frame, cf *function, env, args []Value, res int, advance bool) *frame {
	nf := newFrame(cf.nregs)
	nf.epoch, nf.fn, nf.caller, nf.block, nf.result = t.s.epoch, cf, fr, cf.blocks[0], int32(res)
	if fr != nil {
		nf.depth = fr.depth + 1
	}
	copy(nf.regs, cf.template)
	for i, p := range cf.params {
		nf.regs[p] = args[i]
	}
	for i, fv := range cf.freevars {
		nf.regs[fv] = env[i]
	}
	if fr != nil && advance && fr.fn != nil {
		fr.pc++
	}
	t.g.top = nf
	return nf
}

// callValue calls a function value (closure or native) from fr.
func (t *thread) callValue(fr *frame, fn Value, args []Value, res int, cs *callSite) ctl {
	c, _ := fn.(*Closure)
	if c == nil {
		return t.runtimePanic(fr, "invalid memory address or nil pointer dereference")
	}
	if c.Native != nil {
		if c.Bound != nil {
			args = append([]Value{c.Bound}, args...)
		}
		return t.callNative(fr, c.Native, args, res, cs)
	}
	return t.callFunc(fr, t.m.compile(c.Fn), c.Env, c.callArgs(args), res, cs)
}

// callFunc calls a compiled function from fr.
func (t *thread) callFunc(fr *frame, cf *function, env, args []Value, res int, cs *callSite) ctl {
	if cf.native != nil {
		return t.callNative(fr, cf.native, args, res, cs)
	}
	if cf.blocks == nil {
		return t.unsupported(fr, noModel(cf.ssa))
	}
	if fr != nil && fr.depth >= maxStackDepth {
		return t.unsupported(fr, "a call more than 1,048,576 frames deep (unbounded recursion dies of a stack overflow in Go; a deep one may not)")
	}
	t.pushFrame(fr, cf, env, args, res, true)
	return ctlFrame
}

// maxStackDepth bounds a goroutine's nested calls. A Go program recursing
// without end dies of a stack overflow ("goroutine stack exceeds
// 1000000000-byte limit") once its frames fill 1 GB — tens of millions
// of small frames, more than the VM can hold — so the VM stops the run as
// unsupported at a million frames rather than guess where Go would die
// (a false "stack overflow" would be a false alarm).
const maxStackDepth = 1 << 20

// callNative runs a native model from fr; its result goes to fr's
// register res (-1: none).
func (t *thread) callNative(fr *frame, nf *nativeFunc, args []Value, res int, cs *callSite) ctl {
	v, c := t.runNative(fr, nf, args, res)
	if c == ctlNext && res >= 0 {
		fr.regs[res] = v
	}
	return c
}

// runNative runs a native model and returns its result. A visible native
// is a scheduling point: the transition stops before it (blocking the
// goroutine if its guard does not hold). res is the register of fr that
// receives the result (-1: none), for natives that return a value after
// running Go code (callCont).
func (t *thread) runNative(fr *frame, nf *nativeFunc, args []Value, res int) (Value, ctl) {
	visible := nf.isVisible(t, args)
	if visible && t.yieldBefore() {
		if nf.guard != nil {
			if ok, w := nf.guard(t, args); !ok {
				t.g.status = gBlocked
				t.g.wait = w
				if nf.blocked != nil {
					nf.blocked(t, args)
				}
			}
		}
		return nil, ctlYield
	}
	if t.s.data != nil { // symbolic runs: natives see concrete values (symbolic.go)
		var k ctl
		var ok bool
		if args, k, ok = t.concreteArgs(fr, args); !ok {
			return nil, k
		}
	}
	if t.m.opts.Payload != nil && !t.checkNativeArgs(nf, args) {
		return nil, t.payloadFail(fr)
	}
	if visible {
		t.touchArgs(nf, args)
	}
	saved, savedIn := t.natRes, t.inNative
	t.natRes, t.inNative = res, true
	v, c := nf.fn(t, args)
	t.natRes, t.inNative = saved, savedIn
	return v, c
}

// touchArgs records the footprint of a visible native called with args:
// the objects its pointer and channel arguments point to (written), and
// the whole clock and timer state (object 0) for time natives and
// natives without arguments.
func (t *thread) touchArgs(nf *nativeFunc, args []Value) {
	if !nf.visible {
		return
	}
	for _, a := range args {
		switch x := a.(type) {
		case Pointer:
			t.touch(x.Obj, true)
		case Chan:
			t.touch(x.Obj, true)
		}
	}
	if len(args) == 0 || strings.HasPrefix(nf.name, "time.") {
		t.touch(0, true)
	}
}

// ret returns from the top frame fr with results val.
func (t *thread) ret(fr *frame, val Value) ctl {
	caller := t.own(fr.caller)
	t.g.top = caller
	if caller == nil {
		return t.goroutineExit()
	}
	if caller.fn == nil {
		return caller.cont(t, val)
	}
	if fr.result >= 0 {
		caller.regs[fr.result] = val
	}
	return ctlFrame
}

// popCont removes a continuation frame and returns val to its caller.
func (t *thread) popCont(cf *frame, val Value) ctl {
	return t.ret(cf, val)
}

// callCont calls fn with args above a continuation frame whose cont runs
// with the result. fr's instruction is complete: fr resumes after it when
// the continuation returns (through t.ret with the final value). Called by
// a native, the value the continuation returns is the native's result.
func (t *thread) callCont(fr *frame, fn Value, args []Value, cont func(t *thread, res Value) ctl) ctl {
	return t.callContFrame(fr, fn, args, cont, false, 0)
}

// callContUnwound is callCont whose cont also runs when a panic or a
// Goexit unwinds past it, with res unwoundRes{} (its control is then
// ignored and the unwinding goes on): the work a native defers around a
// callback, as sync.Once.Do's doSlow defers marking it done and unlocking.
// The frame's pc (which no continuation of this kind counts with) marks
// it.
func (t *thread) callContUnwound(fr *frame, fn Value, args []Value, cont func(t *thread, res Value) ctl) ctl {
	return t.callContFrame(fr, fn, args, cont, false, pcUnwound)
}

// pcUnwound marks a continuation frame of callContUnwound.
const pcUnwound = -1

// unwoundRes is the result a continuation of callContUnwound gets when an
// unwinding passes it.
type unwoundRes struct{}

// callContFrame is callCont; a runner continuation frame also ends the
// unwinding of a Goexit (testing.go); pc is the frame's first (0, or
// pcUnwound: callContUnwound).
func (t *thread) callContFrame(fr *frame, fn Value, args []Value, cont func(t *thread, res Value) ctl, runner bool, pc int32) ctl {
	if fr != nil && fr.fn != nil {
		fr.pc++
	}
	res := -1
	if t.inNative {
		res = t.natRes
	}
	cf := &frame{epoch: t.s.epoch, caller: fr, result: int32(res), cont: cont, contArgs: append([]Value{fn}, args...), runner: runner, pc: pc}
	t.g.top = cf
	return t.callAbove(cf, fn, args)
}

// callAbove calls fn(args) above the continuation frame cf, so that
// cf.cont runs again with the result (a loop of callbacks in a native).
func (t *thread) callAbove(cf *frame, fn Value, args []Value) ctl {
	c, _ := fn.(*Closure)
	if c == nil {
		return t.runtimePanic(cf, "invalid memory address or nil pointer dereference")
	}
	var nat *nativeFunc
	var callee *function
	if c.Native != nil {
		nat = c.Native
	} else if callee = t.m.compile(c.Fn); callee.native != nil {
		nat = callee.native
	}
	if nat != nil {
		if c.Bound != nil {
			args = append([]Value{c.Bound}, args...)
		}
		t.pushNativeCall(cf, nat, args)
		return ctlFrame
	}
	if callee.blocks == nil {
		return t.unsupported(cf, noModel(c.Fn))
	}
	t.pushFrame(cf, callee, c.Env, c.callArgs(args), -1, false)
	return ctlFrame
}

// pushNativeCall pushes a frame that calls native nf(args) above the
// continuation frame cf, for calls that have no instruction of their own
// (the function of a go statement, a function a native calls). It runs as
// a call instruction does: a visible native is a scheduling point (and its
// guard blocks the goroutine before it), a native that blocks or yields is
// called again when the goroutine runs again, and its result goes to cf.
// The frame's pc is 1 once the native has pushed frames of its own: their
// result is then its result.
func (t *thread) pushNativeCall(cf *frame, nf *nativeFunc, args []Value) {
	nfr := &frame{epoch: t.s.epoch, caller: cf, result: -1, contArgs: args}
	nfr.cont = func(t *thread, val Value) ctl {
		self := t.g.top
		if self.pc > 0 {
			return t.ret(self, val)
		}
		v, k := t.runNative(self, nf, args, -1)
		switch k {
		case ctlNext:
			return t.ret(self, v)
		case ctlFrame:
			self.pc = 1
		}
		return k
	}
	t.g.top = nfr
}

// goroutineExit ends the running goroutine.
func (t *thread) goroutineExit() ctl {
	g := t.g
	g.status = gDead
	g.top = nil
	t.s.died = true
	t.bubbleExit(g)
	if p := g.panic; p != nil && !p.goexit && !p.recovered {
		t.s.fail(t.panicError(p))
		return ctlStop
	}
	if g.entry {
		t.s.entryReturned(t)
	}
	return ctlStop
}

// maxNestedCalls bounds the nesting of syncCall (VM code called back by a
// native that was itself called from VM code called back by a native…):
// each level is frames of gmc's own Go stack, which must not overflow. A
// Go program recursing that way without end (String calling
// Sprintf("%v", itself)) dies of a stack overflow; the VM stops the run
// as unsupported, as a deep but finite nesting is not an error.
const maxNestedCalls = 1000

// syncCall runs fn(args) to completion inside the current transition (used
// by natives that call back into Go code, e.g. fmt calling a String method).
// Scheduling points inside do not yield. ok is false if the call panicked,
// blocked or is not supported; the goroutine is left as it was.
func (t *thread) syncCall(fn Value, args []Value) (res Value, ok bool) {
	c, _ := fn.(*Closure)
	if c == nil {
		return nil, false
	}
	if c.Native != nil {
		if c.Bound != nil {
			args = append([]Value{c.Bound}, args...)
		}
		v, k := c.Native.fn(t, args)
		return v, k == ctlNext
	}
	cf := t.m.compile(c.Fn)
	if cf.native != nil {
		v, k := cf.native.fn(t, args)
		return v, k == ctlNext
	}
	if cf.blocks == nil {
		return nil, false
	}
	if t.nested >= maxNestedCalls {
		t.unsupported(t.g.top, "calls nested more than 1,000 deep through natives (a String method formatting its receiver with %v recurses without end)")
		return nil, false
	}
	g := t.g
	saved, savedPanic, savedStatus, savedWait := g.top, g.panic, g.status, g.wait
	marker := &frame{epoch: t.s.epoch, result: -1, boundary: true}
	marker.cont = func(t *thread, r Value) ctl {
		res, ok = r, true
		return ctlStop
	}
	t.pushFrame(marker, cf, c.Env, c.callArgs(args), -1, false)
	t.nested++
	for t.s.err == nil {
		fr := g.top
		if fr == nil || fr == marker {
			break
		}
		var k ctl
		switch {
		case fr.unwinding:
			k = t.unwind()
		case fr.fn == nil: // a native's continuation frame (sync.Once.Do's)
			k = fr.cont(t, nil)
		default:
			k = fr.block.code[fr.pc](t, fr)
		}
		if k == ctlNext {
			if fr.fn != nil {
				fr.pc++
			}
		} else if k != ctlJump && k != ctlFrame {
			break
		}
	}
	t.nested--
	g.top, g.panic, g.status, g.wait = saved, savedPanic, savedStatus, savedWait
	return res, ok
}

// osBoundary lists the packages whose functions reach the operating system
// (files, processes, the network, signals): a call of one of them that has
// no model stops the entry at the OS boundary.
var osBoundary = map[string]bool{
	"os": true, "io/ioutil": true, "os/exec": true, "os/signal": true, "os/user": true,
	"syscall": true, "net": true, "net/http": true, "net/http/httptest": true, "crypto/rand": true,
	"internal/poll": true, "internal/syscall/unix": true,
}

// onOSBoundary reports whether the functions of the package with import
// path pkg reach the operating system: osBoundary's packages and
// golang.org/x/sys's (unix.Syscall, windows.*: system calls in assembly).
func onOSBoundary(pkg string) bool {
	return osBoundary[pkg] || strings.HasPrefix(pkg, "golang.org/x/sys/")
}

// noModel is the reason a call of fn, which has neither a body nor a
// model, is unsupported; it names the OS boundary when fn is on it.
func noModel(fn *ssa.Function) string {
	if why, ok := cgoCall(fn); ok {
		return why
	}
	if pkg := fn.Pkg; pkg != nil && onOSBoundary(pkg.Pkg.Path()) {
		return "OS boundary: call of " + fn.String() + " (files, processes, network and signals are not modelled)"
	}
	if o := fn.Origin(); o != nil && o.Pkg != nil && onOSBoundary(o.Pkg.Pkg.Path()) {
		return "OS boundary: call of " + fn.String() + " (files, processes, network and signals are not modelled)"
	}
	return "call of " + fn.String() + " (no body and no model)"
}
