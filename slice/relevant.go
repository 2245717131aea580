package slice

import (
	"go/token"
	"go/types"
	"sort"

	"github.com/gmc-go/gmc/vm/loc"
	"golang.org/x/tools/go/ssa"
)

// This file holds the memory relevant to one question (gmc confirm's
// warning-specific reduction, the main seed's §6 future work): the memory
// classes whose accesses may change whether some locations are reached, in
// which order the program's synchronization happens, or whether a goroutine
// panics. Accesses to any other class are pure data movement whose order
// between goroutines cannot change the answer, so a search may run them
// without a scheduling point.

// Relevance is the set of memory classes relevant to a question (Relevant).
type Relevance struct {
	p       *Program
	classes map[Class]bool
	memo    map[Class]bool
}

// Relevant computes the memory relevant to reaching the criteria in any
// interleaving: the backward slice (Deps) of the criteria and of every
// schedule point of the given functions (ScheduleCriteria), closed under
// inter-goroutine memory dependence: every store that may define a class
// the closure accesses is added with its own slice, until nothing changes.
// Only the functions in fns are sliced (the code under test): a call from
// them to any other function is a criterion as a whole, so everything its
// arguments depend on is relevant, and what it computes is its business.
// quietCall reports the functions whose arguments matter to neither the
// schedule nor a panic (output); calls to them are not criteria.
func (p *Program) Relevant(criteria []loc.Loc, fns map[*ssa.Function]bool, quietCall func(*ssa.Function) bool) *Relevance {
	r := &Relevance{p: p, classes: map[Class]bool{}, memo: map[Class]bool{}}
	set := map[loc.Loc]bool{}
	var work []loc.Loc
	push := func(l loc.Loc) {
		if !set[l] && fns[l.Fn] {
			set[l] = true
			work = append(work, l)
		}
	}
	for _, c := range criteria {
		push(c)
	}
	for _, fn := range sortedFuncs(fns) {
		for _, l := range p.ScheduleCriteria(fn, fns, quietCall) {
			push(l)
		}
	}
	for len(work) > 0 {
		l := work[len(work)-1]
		work = work[:len(work)-1]
		for _, d := range p.Deps(l) {
			push(d.From)
		}
		for _, a := range Accesses(l.Instr()) {
			if r.classes[a.Class] {
				continue
			}
			r.classes[a.Class] = true
			for _, s := range p.MayDefine(a.Class) {
				push(s)
			}
		}
	}
	return r
}

// Visible reports whether the order of in against other goroutines may
// matter: it accesses memory that may alias a relevant class, or it is not
// a classified access at all.
func (r *Relevance) Visible(in ssa.Instruction) bool {
	as := Accesses(in)
	if len(as) == 0 {
		return true
	}
	for _, a := range as {
		v, ok := r.memo[a.Class]
		if !ok {
			for c := range r.classes {
				if MayAlias(a.Class, c) {
					v = true
					break
				}
			}
			r.memo[a.Class] = v
		}
		if v {
			return true
		}
	}
	return false
}

// ScheduleCriteria returns the instructions of fn whose operands may change
// the schedule or stop a goroutine: branches, channel operations, selects,
// go and defer statements, panics, calls of functions without a body here
// (the standard library's synchronization among them) except quiet ones,
// the callee of a dynamic call, and the operands that may make an access,
// an index, a slice, a division or a conversion panic. A pure data move (a
// load or store of a value that only flows into other stores) is not one.
func (p *Program) ScheduleCriteria(fn *ssa.Function, fns map[*ssa.Function]bool, quietCall func(*ssa.Function) bool) []loc.Loc {
	var out []loc.Loc
	for _, b := range fn.Blocks {
		for i, in := range b.Instrs {
			l := loc.Loc{Fn: fn, Block: b.Index, Index: i}
			whole := false
			var parts []ssa.Value
			switch in := in.(type) {
			case *ssa.If, *ssa.Send, *ssa.Select, *ssa.Go, *ssa.Defer, *ssa.Panic,
				*ssa.TypeAssert, *ssa.Slice, *ssa.SliceToArrayPointer, *ssa.MakeSlice,
				*ssa.MakeChan, *ssa.MakeMap, *ssa.Index, *ssa.IndexAddr, *ssa.Range, *ssa.Next:
				whole = true
			case *ssa.UnOp:
				if in.Op == token.ARROW {
					whole = true
				} else if in.Op == token.MUL {
					parts = append(parts, in.X)
				}
			case *ssa.Store:
				parts = append(parts, in.Addr)
			case *ssa.FieldAddr:
				parts = append(parts, in.X)
			case *ssa.MapUpdate:
				parts = append(parts, in.Map)
			case *ssa.Lookup:
				if _, ok := in.X.Type().Underlying().(*types.Map); !ok {
					whole = true // a string index may panic
				} else {
					parts = append(parts, in.Index) // hashing an interface may panic
				}
			case *ssa.BinOp:
				if in.Op == token.QUO || in.Op == token.REM || in.Op == token.SHL || in.Op == token.SHR {
					whole = true
				}
				if in.Op == token.EQL || in.Op == token.NEQ {
					if _, ok := in.X.Type().Underlying().(*types.Interface); ok {
						whole = true // comparing uncomparable dynamic types panics
					}
				}
			case *ssa.Call:
				whole = p.callMatters(in, fns, quietCall)
				if c := in.Common(); !whole && c.StaticCallee() == nil {
					parts = append(parts, c.Value) // a nil func or interface panics
				}
			}
			if whole {
				out = append(out, l)
				continue
			}
			for _, v := range parts {
				for _, d := range p.valueDeps(v) {
					out = append(out, d.From)
				}
			}
		}
	}
	return out
}

// callMatters reports whether a call is a criterion as a whole: a builtin
// that may panic or synchronize, or a call that may reach a function
// outside fns that is not quiet.
func (p *Program) callMatters(call *ssa.Call, fns map[*ssa.Function]bool, quietCall func(*ssa.Function) bool) bool {
	c := call.Common()
	if b, ok := c.Value.(*ssa.Builtin); ok {
		switch b.Name() {
		case "close", "panic", "recover":
			return true
		}
		return false
	}
	callees := p.callees[call]
	if f := c.StaticCallee(); f != nil {
		callees = []*ssa.Function{f}
	}
	if len(callees) == 0 {
		return true
	}
	for _, f := range callees {
		if !fns[f] && (quietCall == nil || !quietCall(f)) {
			return true
		}
	}
	return false
}

// sortedFuncs lists a set of functions in FuncLess order.
func sortedFuncs(fns map[*ssa.Function]bool) []*ssa.Function {
	out := make([]*ssa.Function, 0, len(fns))
	for f := range fns {
		out = append(out, f)
	}
	sort.Slice(out, func(i, j int) bool { return FuncLess(out[i], out[j]) })
	return out
}
