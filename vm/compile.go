package vm

import (
	"fmt"
	"go/constant"
	"go/types"
	"slices"
	"strings"
	"sync"

	"golang.org/x/tools/go/ssa"

	"github.com/gmc-go/gmc/vm/loc"
)

// ctl is what an operation tells the interpreter loop.
type ctl uint8

const (
	ctlNext  ctl = iota // advance to the next instruction of the frame
	ctlJump             // the op changed the frame's block/pc itself
	ctlFrame            // the top frame changed (call, return); continue with it
	ctlYield            // stop the transition before this op (scheduling point)
	ctlBlock            // the goroutine blocked at this op; stop the transition
	ctlStop             // the transition ends (goroutine or program ended, error)
)

// op is one compiled SSA instruction.
type op func(t *thread, fr *frame) ctl

// function is the compiled form of an ssa.Function.
type function struct {
	ssa      *ssa.Function
	name     string // the runtime's name, e.g. main.(*T).m or main.main.func1
	nregs    int
	template []Value // initial registers: constants, globals, functions
	blocks   []*block
	params   []int
	freevars []int
	recover  *block
	native   *nativeFunc
	shared   bool // loads/stores of shared objects are scheduling points
	results  int  // number of results
	// live (liveness.go) is computed on first use, once (machines are
	// shared by parallel searches), from the registers of valueRegs.
	liveOnce sync.Once
	live     *liveness
	// plan is the instructions run after their statement's calls, as gc
	// orders them (evalorder.go; nil: none)
	plan *deferPlan
}

type block struct {
	index int
	first int // number of φ-nodes (code[i] is Instrs[first+i])
	phis  []phi
	code  []op
	ssa   *ssa.BasicBlock
	// selects holds the code indexes of the block's select instructions
	// (the only ones that offer one choice per ready case).
	selects []int
}

type phi struct {
	dst  int
	srcs []int // by predecessor index
}

// compiler builds one function.
type compiler struct {
	m    *Machine
	fn   *function
	regs map[ssa.Value]int
}

func (m *Machine) compile(f *ssa.Function) *function {
	m.fnMu.Lock()
	defer m.fnMu.Unlock()
	if cf, ok := m.funcs[f]; ok {
		return cf
	}
	cf := &function{ssa: f, name: runtimeFuncName(f), results: f.Signature.Results().Len()}
	m.funcs[f] = cf
	if nf := m.natives[m.nativeKey(f)]; nf != nil {
		cf.native = nf
		return cf
	}
	if o := f.Origin(); o != nil {
		if mk := genericNatives[o.String()]; mk != nil {
			cf.native = mk(m, f.TypeArgs())
			return cf
		}
	}
	if len(f.Blocks) == 0 {
		cf.native = linknameNative(f) // a runtime function pulled by //go:linkname (natives_linkname.go)
		return cf                     // else external: calling it reports unsupported
	}
	cf.shared = m.opts.Sched == SchedShared && f.Pkg != nil && m.underTest(f.Pkg.Pkg.Path())
	c := &compiler{m: m, fn: cf, regs: map[ssa.Value]int{}}
	for _, p := range f.Params {
		cf.params = append(cf.params, c.newReg(p))
	}
	for _, fv := range f.FreeVars {
		cf.freevars = append(cf.freevars, c.newReg(fv))
	}
	for _, b := range f.Blocks {
		for _, in := range b.Instrs {
			if v, ok := in.(ssa.Value); ok {
				c.newReg(v)
			}
		}
	}
	cf.blocks = make([]*block, len(f.Blocks))
	for i, b := range f.Blocks {
		cf.blocks[i] = &block{index: i, ssa: b}
	}
	cf.plan = planDeferrals(f)
	for i, b := range f.Blocks {
		cb := cf.blocks[i]
		var later map[int]op // the ops of the block's deferred instructions
		for k, in := range b.Instrs {
			if p, ok := in.(*ssa.Phi); ok {
				ph := phi{dst: c.reg(p)}
				for _, e := range p.Edges {
					ph.srcs = append(ph.srcs, c.reg(e))
				}
				cb.phis = append(cb.phis, ph)
				cb.first++
				continue
			}
			o := c.instr(in)
			if m.opts.Symbolic { // concretize operands that must be concrete (symbolic.go)
				o = c.symGuard(in, o)
			}
			if m.opts.Payload != nil { // payload.go
				o = c.payloadOp(in, o)
			}
			if cf.shared && m.opts.Invisible != nil && m.opts.Invisible(in) {
				o = invisible(o)
			}
			if cf.plan.isDeferred(i, k) { // run at its anchor (evalorder.go)
				if later == nil {
					later = map[int]op{}
				}
				later[k], o = o, nop
			} else if ds := cf.plan.at(i, k); len(ds) > 0 {
				ops := make([]op, len(ds))
				for j, d := range ds {
					ops[j] = later[int(d)]
				}
				o = deferredOp(ops, o)
			}
			if m.breakpoints[loc.Loc{Fn: f, Block: i, Index: cb.first + len(cb.code)}] {
				o = breakpoint(o)
			}
			if m.unreachable[loc.Loc{Fn: f, Block: i, Index: cb.first + len(cb.code)}] {
				o = unreachable(o)
			}
			if _, ok := in.(*ssa.Select); ok {
				cb.selects = append(cb.selects, len(cb.code))
			}
			if call, ok := isReflectSelect(in); ok { // a select too (natives_reflect_select.go)
				cb.selects = append(cb.selects, len(cb.code))
				m.selects.Store(in, &reflectSelectSite{arg: c.reg(call.Call.Args[0])})
			}
			cb.code = append(cb.code, o)
		}
	}
	if f.Recover != nil {
		cf.recover = cf.blocks[f.Recover.Index]
	}
	if compiledRegs != nil {
		compiledRegs(cf, c.regs)
	}
	if cap(cf.template) > len(cf.template)+len(cf.template)/8 {
		cf.template = slices.Clone(cf.template) // (grown one register at a time: up to twice its size)
	}
	return cf
}

// compiledRegs, when set (by tests), sees each function's registers as
// compile numbered them.
var compiledRegs func(*function, map[ssa.Value]int)

// valueRegs numbers f's parameters, free variables and value instructions
// as compile does: their registers come first, in that order, before the
// constants, globals and functions the template holds. The liveness
// computation needs them once; the compiler's map is not kept (81 MB, a
// seventh of the live heap, in a check of maypok86/otter/v2's tests).
func (f *function) valueRegs() map[ssa.Value]int {
	regs := map[ssa.Value]int{}
	add := func(v ssa.Value) {
		if _, ok := regs[v]; !ok {
			regs[v] = len(regs)
		}
	}
	for _, p := range f.ssa.Params {
		add(p)
	}
	for _, fv := range f.ssa.FreeVars {
		add(fv)
	}
	for _, b := range f.ssa.Blocks {
		for _, in := range b.Instrs {
			if v, ok := in.(ssa.Value); ok {
				add(v)
			}
		}
	}
	return regs
}

// breakpoint makes an instruction a scheduling point: the goroutine stops
// before it unless it is the first operation of the transition, and once
// it has executed it, it counts as the transition's visible operation, so
// a goroutine that executes a breakpoint also stops at the next one (the
// guided search sees which successor of a branch of its trace was taken).
func breakpoint(o op) op {
	return func(t *thread, fr *frame) ctl {
		if t.nested > 0 {
			return o(t, fr)
		}
		if t.visible {
			return ctlYield
		}
		l := t.g.loc()
		k := o(t, fr)
		if k != ctlYield && !t.visible {
			t.visible = true
			t.s.last.Loc = l
		}
		return k
	}
}

// invisible runs an instruction whose shared accesses are not scheduling
// points (Options.Invisible).
func invisible(o op) op {
	return func(t *thread, fr *frame) ctl {
		t.hidden = true
		k := o(t, fr)
		t.hidden = false
		return k
	}
}

// unreachable makes reaching an instruction an error (Options.Unreachable):
// the goroutine stops before executing it.
func unreachable(o op) op {
	return func(t *thread, fr *frame) ctl {
		pos := t.posOf(fr)
		t.s.fail(&Error{Kind: KindUnreachable, Msg: "reached a location marked unreachable at " + pos, Pos: pos, Loc: t.locOf(fr)})
		return ctlStop
	}
}

func (c *compiler) newReg(v ssa.Value) int {
	if r, ok := c.regs[v]; ok {
		return r
	}
	r := c.fn.nregs
	c.fn.nregs++
	c.fn.template = append(c.fn.template, nil)
	c.regs[v] = r
	return r
}

// reg returns the register holding operand v, materializing constants,
// globals and functions into the template.
func (c *compiler) reg(v ssa.Value) int {
	if r, ok := c.regs[v]; ok {
		return r
	}
	r := c.newReg(v)
	switch x := v.(type) {
	case *ssa.Const:
		c.fn.template[r] = c.m.constValue(x)
	case *ssa.Global:
		c.fn.template[r] = c.m.globalPtr(x)
	case *ssa.Function:
		c.fn.template[r] = &Closure{Fn: x}
	case *ssa.Builtin:
		c.fn.template[r] = nil
	default:
		panic(fmt.Sprintf("gmc: operand %T %v has no register", v, v))
	}
	return r
}

func (c *compiler) rt(t types.Type) *RType { return c.m.types.get(t) }

// constValue converts an SSA constant to a VM value.
func (m *Machine) constValue(k *ssa.Const) Value {
	t := k.Type()
	if k.Value == nil {
		return m.types.get(t).Zero()
	}
	if _, ok := t.Underlying().(*types.Interface); ok {
		// a constant of interface type converted from a basic constant
		return m.types.get(t).Zero()
	}
	if isPointerLike(t.Underlying()) && basicKindOf(t) != types.Uintptr { // a pointer constant made from a number (unsafe.Pointer(^uintptr(0)))
		if a := constToValue(k.Value, types.Uintptr).(uintptr); a != 0 {
			return wildPtr{a: a}
		}
		return Pointer{}
	}
	return constToValue(k.Value, basicKindOf(t))
}

func constToValue(v constant.Value, kind types.BasicKind) Value {
	switch kind {
	case types.Bool, types.UntypedBool:
		return constant.BoolVal(v)
	case types.String, types.UntypedString:
		return constant.StringVal(v)
	case types.Float32:
		f, _ := constant.Float32Val(constant.ToFloat(v))
		return f
	case types.Float64, types.UntypedFloat:
		f, _ := constant.Float64Val(constant.ToFloat(v))
		return f
	case types.Complex64:
		re, _ := constant.Float32Val(constant.Real(v))
		im, _ := constant.Float32Val(constant.Imag(v))
		return complex(re, im)
	case types.Complex128, types.UntypedComplex:
		re, _ := constant.Float64Val(constant.Real(v))
		im, _ := constant.Float64Val(constant.Imag(v))
		return complex(re, im)
	}
	v = constant.ToInt(v)
	var u uint64
	if i, ok := constant.Int64Val(v); ok {
		u = uint64(i)
	} else if x, ok := constant.Uint64Val(v); ok {
		u = x
	}
	return intOfKind(kind, u)
}

// intOfKind converts raw bits to the Go value of an integer kind (wrapping).
func intOfKind(kind types.BasicKind, u uint64) Value {
	switch kind {
	case types.Int, types.UntypedInt:
		return int(u)
	case types.Int8:
		return int8(u)
	case types.Int16:
		return int16(u)
	case types.Int32, types.UntypedRune:
		return int32(u)
	case types.Int64:
		return int64(u)
	case types.Uint:
		return uint(u)
	case types.Uint8:
		return uint8(u)
	case types.Uint16:
		return uint16(u)
	case types.Uint32:
		return uint32(u)
	case types.Uint64:
		return u
	case types.Uintptr:
		return uintptr(u)
	}
	return int(u)
}

// runtimeFuncName names f as the Go runtime does in tracebacks: closures are
// outer.funcN (nested ones outer.funcN.M), methods pkg.(*T).m or pkg.T.m,
// method values pkg.(*T).m-fm.
func runtimeFuncName(f *ssa.Function) string {
	if p := f.Parent(); p != nil {
		n := f.Name()[strings.LastIndexByte(f.Name(), '$')+1:]
		if p.Parent() != nil {
			return runtimeFuncName(p) + "." + n
		}
		return runtimeFuncName(p) + ".func" + n
	}
	name := f.Name()
	suffix := ""
	if i := strings.IndexByte(name, '$'); i >= 0 {
		if strings.HasSuffix(name, "$bound") {
			suffix = "-fm"
		}
		name = name[:i]
	}
	pkg := ""
	var tp *types.Package
	if f.Pkg != nil {
		tp = f.Pkg.Pkg
	} else if f.Object() != nil {
		tp = f.Object().Pkg()
	}
	if tp != nil {
		pkg = tp.Path()
		if tp.Name() == "main" {
			pkg = "main" // the runtime names a command's package main
		}
	}
	if i := strings.IndexByte(name, '['); i >= 0 {
		name = name[:i] + "[...]"
	}
	var recv types.Type
	if f.Signature.Recv() != nil {
		recv = f.Signature.Recv().Type()
	} else if strings.HasSuffix(f.Name(), "$thunk") && len(f.Params) > 0 {
		// a method expression T.m: gc's wrapper is named after T, the
		// type the expression names (a promoted method's included)
		recv = f.Params[0].Type()
		if n, ok := types.Unalias(elemIfPointer(recv)).(*types.Named); ok && n.Obj().Pkg() != nil {
			pkg = n.Obj().Pkg().Path()
			if n.Obj().Pkg().Name() == "main" {
				pkg = "main"
			}
		}
	} else if obj, ok := f.Object().(*types.Func); ok && obj != nil {
		if r := obj.Type().(*types.Signature).Recv(); r != nil {
			recv = r.Type()
		}
	}
	pkg = symbolPath(pkg)
	if recv != nil {
		t := recv
		ptr := ""
		if p, ok := t.(*types.Pointer); ok {
			ptr = "*"
			t = p.Elem()
		}
		tn := types.TypeString(t, func(*types.Package) string { return "" })
		if i := strings.IndexByte(tn, '['); i >= 0 {
			tn = tn[:i] + "[...]"
		}
		if ptr != "" {
			return pkg + ".(" + ptr + tn + ")." + name + suffix
		}
		return pkg + "." + tn + "." + name + suffix
	}
	return pkg + "." + name + suffix
}

// symbolPath is a package path as gc writes it in symbol names, which
// runtime.FuncForPC and tracebacks show: a control character, space, '%',
// '"', a byte of 0x7f or above, and a '.' in the last path element are
// written %xx (two lower-case hex digits), so that the first '.' after the
// last '/' ends the path ("example.com/repo.git" → "example.com/repo%2egit").
func symbolPath(path string) string {
	slash := strings.LastIndexByte(path, '/')
	escape := func(i int) bool {
		c := path[i]
		return c <= ' ' || c == '%' || c == '"' || c >= 0x7f || (c == '.' && i > slash)
	}
	var b []byte
	for i := 0; i < len(path); i++ {
		if !escape(i) {
			if b != nil {
				b = append(b, path[i])
			}
			continue
		}
		if b == nil {
			b = append(make([]byte, 0, len(path)+8), path[:i]...)
		}
		const hexDigits = "0123456789abcdef"
		b = append(b, '%', hexDigits[path[i]>>4], hexDigits[path[i]&0xf])
	}
	if b == nil {
		return path
	}
	return string(b)
}

// elemIfPointer returns a pointer type's element type, or t itself.
func elemIfPointer(t types.Type) types.Type {
	if p, ok := t.Underlying().(*types.Pointer); ok {
		return p.Elem()
	}
	return t
}
