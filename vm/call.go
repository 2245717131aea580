package vm

import (
	"go/types"
	"sync/atomic"

	"golang.org/x/tools/go/ssa"
)

// callSite identifies a call instruction (for reports).
type callSite struct {
	instr ssa.Instruction
}

// callee resolves the target of a call-like instruction at run time:
// the function value (or interface method) and the argument list.
type calleeFn func(t *thread, fr *frame) (fn Value, args []Value, errCtl ctl, ok bool)

func (c *compiler) callee(cc *ssa.CallCommon) calleeFn {
	args := make([]int, len(cc.Args))
	for i, a := range cc.Args {
		args[i] = c.reg(a)
	}
	readArgs := func(fr *frame, extra int) []Value {
		vs := make([]Value, extra, extra+len(args))
		for _, r := range args {
			vs = append(vs, fr.regs[r])
		}
		return vs
	}
	if cc.Method != nil {
		recv := c.reg(cc.Value)
		m := cc.Method
		return func(t *thread, fr *frame) (Value, []Value, ctl, bool) {
			iv := fr.regs[recv].(Iface)
			if iv.T == nil {
				return nil, nil, t.runtimePanic(fr, "invalid memory address or nil pointer dereference"), false
			}
			fn := t.m.methodClosure(iv.T, m)
			if fn == nil {
				return nil, nil, t.unsupported(fr, "method "+m.Name()+" of "+iv.T.String()), false
			}
			vs := readArgs(fr, 1)
			vs[0] = iv.V
			return fn, vs, 0, true
		}
	}
	if f, ok := cc.Value.(*ssa.Function); ok {
		fv := c.m.funcValue(f)
		return func(t *thread, fr *frame) (Value, []Value, ctl, bool) {
			return fv, readArgs(fr, 0), 0, true
		}
	}
	fnReg := c.reg(cc.Value)
	return func(t *thread, fr *frame) (Value, []Value, ctl, bool) {
		return fr.regs[fnReg], readArgs(fr, 0), 0, true
	}
}

// funcValue returns the (shared) closure value of a function without free variables.
func (m *Machine) funcValue(f *ssa.Function) *Closure {
	m.fvMu.Lock()
	defer m.fvMu.Unlock()
	if cl, ok := m.fvals[f]; ok {
		return cl
	}
	cl := &Closure{Fn: f}
	m.fvals[f] = cl
	return cl
}

func (c *compiler) call(in ssa.Instruction, cc *ssa.CallCommon, dst int) op {
	if b, ok := cc.Value.(*ssa.Builtin); ok {
		if v, ok := in.(ssa.Value); ok && v.Referrers() != nil && len(*v.Referrers()) == 0 {
			dst = -1 // the result is not read (_ = unsafe.Slice(p, n))
		}
		return c.builtin(b, cc.Args, dst)
	}
	cs := &callSite{instr: in}
	if f, ok := cc.Value.(*ssa.Function); ok && cc.Method == nil {
		// Static call: resolve the compiled callee once.
		args := make([]int, len(cc.Args))
		for i, a := range cc.Args {
			args[i] = c.reg(a)
		}
		var target atomic.Pointer[function]
		return func(t *thread, fr *frame) ctl {
			cf := target.Load()
			if cf == nil {
				cf = t.m.compile(f)
				target.Store(cf)
			}
			vs := make([]Value, len(args))
			for i, r := range args {
				vs[i] = fr.regs[r]
			}
			return t.callFunc(fr, cf, nil, vs, dst, cs)
		}
	}
	resolve := c.callee(cc)
	return func(t *thread, fr *frame) ctl {
		fn, args, k, ok := resolve(t, fr)
		if !ok {
			return k
		}
		return t.callValue(fr, fn, args, dst, cs)
	}
}

func (c *compiler) deferOp(in *ssa.Defer) op {
	if b, ok := in.Call.Value.(*ssa.Builtin); ok {
		mk := c.builtinClosure(b, in.Call.Args)
		return func(t *thread, fr *frame) ctl {
			fr.defers = &deferred{fn: mk(fr), next: fr.defers}
			return ctlNext
		}
	}
	resolve := c.callee(&in.Call)
	stack := -1
	if in.DeferStack != nil {
		stack = c.reg(in.DeferStack)
	}
	return func(t *thread, fr *frame) ctl {
		fn, args, k, ok := resolve(t, fr)
		if !ok {
			return k
		}
		if stack >= 0 {
			target := t.frameAtDepth(fr.regs[stack].(deferStack).depth)
			target.defers = &deferred{fn: fn, args: args, next: target.defers}
			return ctlNext
		}
		fr.defers = &deferred{fn: fn, args: args, next: fr.defers}
		return ctlNext
	}
}

// deferStack is the value of ssa:deferstack(): the frame (by depth from
// the bottom of the goroutine's stack) whose defer list a range-over-func
// body appends to.
type deferStack struct{ depth int }

func frameDepth(fr *frame) int {
	d := 0
	for f := fr.caller; f != nil; f = f.caller {
		d++
	}
	return d
}

// frameAtDepth returns the frame at depth d of the running goroutine, made
// writable together with every frame above it.
func (t *thread) frameAtDepth(d int) *frame {
	var chain []*frame
	for f := t.g.top; f != nil; f = f.caller {
		chain = append(chain, f)
	}
	idx := len(chain) - 1 - d
	// copy frames from the target up to the top, relinking callers
	var below *frame
	for i := idx; i >= 0; i-- {
		f := t.own(chain[i])
		if below != nil {
			f.caller = below
		}
		chain[i] = f
		below = f
	}
	t.g.top = chain[0]
	return chain[idx]
}

func (c *compiler) goOp(in *ssa.Go) op {
	resolve := c.callee(&in.Call)
	start := c.goStartName(in)
	var mkBuiltin func(fr *frame) *Closure
	if b, ok := in.Call.Value.(*ssa.Builtin); ok {
		mkBuiltin = c.builtinClosure(b, in.Call.Args)
	}
	return func(t *thread, fr *frame) ctl {
		if t.yieldBefore() {
			return ctlYield
		}
		if mkBuiltin != nil {
			t.spawn(fr, mkBuiltin(fr), nil, start)
			t.s.last.Op = "go"
			return ctlNext
		}
		fn, args, k, ok := resolve(t, fr)
		if !ok {
			return k
		}
		cl, _ := fn.(*Closure)
		if cl == nil {
			return t.plainPanic(fr, "go of nil func value")
		}
		name := start
		if name == "" && cl.Fn != nil {
			name = runtimeFuncName(cl.Fn)
		}
		t.spawn(fr, cl, args, name)
		t.s.last.Op = "go"
		return ctlNext
	}
}

// spawn creates a goroutine running cl(args).
func (t *thread) spawn(fr *frame, cl *Closure, args []Value, start string) *goroutine {
	s := t.s
	o := &gOrigin{start: start, parent: t.g.id}
	if fr != nil && fr.fn != nil && fr.block != nil {
		o.createdAt = frameLoc(fr, true)
	}
	g := &goroutine{epoch: s.epoch, id: s.nextG, status: gRunnable, origin: o, bubble: t.g.bubble, wallBase: t.g.wallBase}
	s.nextG++
	s.gs.push(g, s.epoch, &s.gsShared)
	s.runnext = g.id
	if t.m.opts.Sched == SchedShared || s.race != nil {
		t.share(cl)
		for _, a := range args {
			t.share(a)
		}
	}
	if s.race != nil {
		t.raceGo(g)
	}
	t.lockFork(g)
	boot := &frame{epoch: s.epoch, result: -1, contArgs: append([]Value{cl}, args...)}
	boot.cont = func(t *thread, _ Value) ctl {
		b := t.g.top
		b.pc++
		if b.pc == 1 {
			t.visible = true // starting is the goroutine's first visible operation
			t.s.last.Op = "start"
			return t.callCont(nil, cl, args, func(t *thread, _ Value) ctl {
				t.g.top = nil
				return t.goroutineExit()
			})
		}
		t.g.top = nil
		return t.goroutineExit()
	}
	g.top = boot
	return g
}

// goStartName names the start function of a go statement as the runtime
// does: the closure's name for `go func(){...}()`, else outer.gowrapN.
func (c *compiler) goStartName(in *ssa.Go) string {
	if mc, ok := in.Call.Value.(*ssa.MakeClosure); ok && len(in.Call.Args) == 0 {
		return runtimeFuncName(mc.Fn.(*ssa.Function))
	}
	if f, ok := in.Call.Value.(*ssa.Function); ok && len(in.Call.Args) == 0 && in.Call.Method == nil {
		if f.Parent() != nil || f.Signature.Recv() == nil {
			return runtimeFuncName(f)
		}
	}
	// count the wrapped go statements of the enclosing source function in order
	outer := in.Parent()
	for outer.Parent() != nil {
		outer = outer.Parent()
	}
	n := 0
	var walk func(f *ssa.Function)
	var found int
	walk = func(f *ssa.Function) {
		for _, b := range f.Blocks {
			for _, i := range b.Instrs {
				g, ok := i.(*ssa.Go)
				if !ok || !needsGoWrap(g) {
					continue
				}
				n++
				if g == in {
					found = n
				}
			}
		}
		for _, a := range f.AnonFuncs {
			walk(a)
		}
	}
	walk(outer)
	parentName := runtimeFuncName(in.Parent())
	return parentName + ".gowrap" + itoa(found)
}

func needsGoWrap(g *ssa.Go) bool {
	if _, ok := g.Call.Value.(*ssa.MakeClosure); ok && len(g.Call.Args) == 0 {
		return false
	}
	if f, ok := g.Call.Value.(*ssa.Function); ok && len(g.Call.Args) == 0 && g.Call.Method == nil {
		return f.Signature.Recv() != nil && f.Parent() == nil
	}
	return true
}

// methodClosure returns the method fn of dynamic type rt as a function
// value (natives for the VM's own synthetic types), or nil.
func (m *Machine) methodClosure(rt *RType, fn *types.Func) Value {
	if n, ok := rt.T.(*types.Named); ok && n.Obj().Pkg() == fakeRuntime {
		if nf := m.natives["("+rt.T.String()+")."+fn.Name()]; nf != nil {
			return &Closure{Native: nf}
		}
		return nil
	}
	f := rt.method(fn)
	if f == nil {
		return nil
	}
	return m.funcValue(f)
}

// builtinClosure returns a maker of a native closure that calls builtin b
// with the current values of args (for go and defer of a builtin).
func (c *compiler) builtinClosure(b *ssa.Builtin, argVals []ssa.Value) func(fr *frame) *Closure {
	bop := c.builtin(b, argVals, -1)
	args := make([]int, len(argVals))
	for i, a := range argVals {
		args[i] = c.reg(a)
	}
	return func(fr *frame) *Closure {
		saved := make([]Value, len(args))
		for i, r := range args {
			saved[i] = fr.regs[r]
		}
		fn, block := fr.fn, fr.block
		nf := &nativeFunc{name: b.Name(), fn: func(t *thread, _ []Value) (Value, ctl) {
			tmp := &frame{epoch: t.s.epoch, fn: fn, regs: make([]Value, fn.nregs), block: block}
			for i, r := range args {
				tmp.regs[r] = saved[i]
			}
			return nil, bop(t, tmp)
		}}
		// Env holds the arguments for the state hash and the leak
		// check's reachability (the native uses its own copy)
		return &Closure{Native: nf, Env: saved}
	}
}
