package slice

import (
	"go/token"

	"github.com/gmc-go/gmc/vm/loc"
	"golang.org/x/tools/go/ssa"
)

// DepKind says why one instruction depends on another.
type DepKind uint8

const (
	Control DepKind = iota // the instruction runs only if From takes successor Succ
	Entry                  // the instruction's function is invoked at call site From
	Data                   // From defines an SSA operand of the instruction
	Param                  // From is a call site passing the parameter the instruction uses
	FreeVar                // From is the MakeClosure binding a free variable used
	Result                 // From is a Return of a callee whose result the instruction uses
	Memory                 // From is a store that may define the memory the instruction loads
)

func (k DepKind) String() string {
	return [...]string{"control", "entry", "data", "param", "freevar", "result", "memory"}[k]
}

// Dep is one dependence of an instruction on the instruction at From.
type Dep struct {
	From loc.Loc
	Kind DepKind
	Succ int // for Control: the successor index of From that must be taken
}

// Deps returns the direct dependences of the instruction at l: control,
// entry (call sites of its function), data, interprocedural and memory.
func (p *Program) Deps(l loc.Loc) []Dep {
	in := l.Instr()
	if in == nil {
		return nil
	}
	var out []Dep
	f := p.funcInfo(l.Fn)
	for _, cd := range f.CD[l.Block] {
		out = append(out, Dep{From: cd.Branch, Kind: Control, Succ: cd.Succ})
	}
	for _, s := range p.codeCallers(l.Fn) {
		out = append(out, Dep{From: s.Loc, Kind: Entry})
	}
	if phi, ok := in.(*ssa.Phi); ok {
		// The edge a phi takes is decided by the branches controlling its
		// predecessors and by a branch ending a predecessor.
		for _, pr := range phi.Block().Preds {
			for _, cd := range f.CD[pr.Index] {
				out = append(out, Dep{From: cd.Branch, Kind: Control, Succ: cd.Succ})
			}
			if br, ok := Branch(l.Fn, pr.Index); ok {
				out = append(out, Dep{From: br, Kind: Control, Succ: -1})
			}
		}
	}
	var rands [8]*ssa.Value
	for _, v := range in.Operands(rands[:0]) {
		if v == nil || *v == nil {
			continue
		}
		out = append(out, p.valueDeps(*v)...)
	}
	if c, ok := in.(*ssa.Call); ok {
		for _, g := range p.codeCallees(c) {
			for _, r := range returns(g) {
				out = append(out, Dep{From: r, Kind: Result})
			}
		}
	}
	for _, a := range Accesses(in) {
		if !a.Write {
			for _, s := range p.ReachingStores(l, a.Class) {
				out = append(out, Dep{From: s, Kind: Memory})
			}
		}
	}
	return dedupDeps(out)
}

// valueDeps returns the instructions defining an SSA value.
func (p *Program) valueDeps(v ssa.Value) []Dep {
	switch v := v.(type) {
	case ssa.Instruction:
		return []Dep{{From: loc.Of(v), Kind: Data}}
	case *ssa.Parameter:
		var out []Dep
		for _, s := range p.codeCallers(v.Parent()) {
			out = append(out, Dep{From: s.Loc, Kind: Param})
		}
		return out
	case *ssa.FreeVar:
		return p.closureSites(v.Parent())
	}
	return nil
}

// closureSites returns the MakeClosure instructions creating closures of fn.
func (p *Program) closureSites(fn *ssa.Function) []Dep {
	var out []Dep
	if par := fn.Parent(); par != nil {
		for _, b := range par.Blocks {
			for _, in := range b.Instrs {
				if mc, ok := in.(*ssa.MakeClosure); ok && mc.Fn == fn {
					out = append(out, Dep{From: loc.Of(mc), Kind: FreeVar})
				}
			}
		}
	}
	return out
}

// ValueSources returns the instructions whose values the SSA value v is
// computed from within and across functions, following def-use, parameters
// (to the call sites and the arguments bound to them), free variables (to
// the values MakeClosure binds), and call results (to the callees' returned
// values), but not memory. Loads are included; the caller decides what
// memory they read. At most maxSources locations are returned, in a
// deterministic order (of discovery).
func (p *Program) ValueSources(v ssa.Value) []loc.Loc {
	seen := map[loc.Loc]bool{}
	seenParam := map[*ssa.Parameter]bool{}
	var out []loc.Loc
	var work []ssa.Value
	work = append(work, v)
	for len(work) > 0 && len(out) < maxSources {
		v := work[len(work)-1]
		work = work[:len(work)-1]
		switch v := v.(type) {
		case *ssa.Parameter:
			// Follow only the argument bound to the parameter.
			if seenParam[v] {
				continue
			}
			seenParam[v] = true
			idx := paramIndex(v)
			for _, s := range p.codeCallers(v.Parent()) {
				if !seen[s.Loc] {
					seen[s.Loc] = true
					out = append(out, s.Loc)
				}
				if a := argFor(s.Instr.Common(), idx); a != nil {
					work = append(work, a)
				}
			}
			continue
		case *ssa.FreeVar:
			for _, d := range p.closureSites(v.Parent()) {
				mc := d.From.Instr().(*ssa.MakeClosure)
				for i, fv := range v.Parent().FreeVars {
					if fv == v && i < len(mc.Bindings) {
						work = append(work, mc.Bindings[i])
					}
				}
			}
			continue
		}
		in, ok := v.(ssa.Instruction)
		if !ok {
			continue
		}
		l := loc.Of(in)
		if seen[l] {
			continue
		}
		seen[l] = true
		out = append(out, l)
		var rands [8]*ssa.Value
		for _, r := range in.Operands(rands[:0]) {
			if r != nil && *r != nil {
				work = append(work, *r)
			}
		}
		if c, ok := in.(*ssa.Call); ok {
			for _, g := range p.codeCallees(c) {
				for _, r := range returns(g) {
					for _, res := range r.Instr().(*ssa.Return).Results {
						work = append(work, res)
					}
					if !seen[r] {
						seen[r] = true
						out = append(out, r)
					}
				}
			}
		}
	}
	return out
}

// maxSources bounds ValueSources on large programs.
const maxSources = 2000

func paramIndex(v *ssa.Parameter) int {
	for i, q := range v.Parent().Params {
		if q == v {
			return i
		}
	}
	return -1
}

// argFor returns the argument a call passes for the callee's idx-th
// parameter (the receiver of an interface call is parameter 0).
func argFor(c *ssa.CallCommon, idx int) ssa.Value {
	if idx < 0 {
		return nil
	}
	if c.IsInvoke() {
		if idx == 0 {
			return c.Value
		}
		idx--
	}
	if idx < len(c.Args) {
		return c.Args[idx]
	}
	return nil
}

func returns(fn *ssa.Function) []loc.Loc {
	var out []loc.Loc
	for _, b := range fn.Blocks {
		if n := len(b.Instrs); n > 0 {
			if _, ok := b.Instrs[n-1].(*ssa.Return); ok {
				out = append(out, loc.Loc{Fn: fn, Block: b.Index, Index: n - 1})
			}
		}
	}
	return out
}

func dedupDeps(ds []Dep) []Dep {
	seen := map[Dep]bool{}
	out := ds[:0]
	for _, d := range ds {
		if !seen[d] {
			seen[d] = true
			out = append(out, d)
		}
	}
	return out
}

// Slice is a backward slice: the set of locations that may affect whether
// and with which values the criteria execute.
type Slice struct {
	Criteria []loc.Loc
	Locs     []loc.Loc // sorted with Less
	set      map[loc.Loc]bool
}

// Has reports whether l is in the slice.
func (s *Slice) Has(l loc.Loc) bool { return s.set[l] }

// Backward computes the interprocedural backward slice from the criteria:
// the transitive closure of Deps (context-insensitive, Horwitz et al. without
// summary edges, so it may include more than a two-phase slice would).
func (p *Program) Backward(criteria ...loc.Loc) *Slice {
	s := &Slice{Criteria: criteria, set: map[loc.Loc]bool{}}
	work := append([]loc.Loc(nil), criteria...)
	for _, c := range criteria {
		s.set[c] = true
	}
	for len(work) > 0 {
		l := work[len(work)-1]
		work = work[:len(work)-1]
		for _, d := range p.Deps(l) {
			if !s.set[d.From] {
				s.set[d.From] = true
				work = append(work, d.From)
			}
		}
	}
	for l := range s.set {
		s.Locs = append(s.Locs, l)
	}
	SortLocs(s.Locs)
	return s
}

// Lines returns the distinct "file:line" positions (base file names) of the
// slice's instructions that have a position, in order.
func (s *Slice) Lines(fset *token.FileSet) []token.Position {
	seen := map[token.Position]bool{}
	var out []token.Position
	for _, l := range s.Locs {
		in := l.Instr()
		if in == nil || !in.Pos().IsValid() {
			continue
		}
		pos := fset.Position(in.Pos())
		pos = token.Position{Filename: pos.Filename, Line: pos.Line}
		if !seen[pos] {
			seen[pos] = true
			out = append(out, pos)
		}
	}
	return out
}
