package warn

import (
	"go/token"
	"sort"

	"github.com/gmc-go/gmc/slice"
	"github.com/gmc-go/gmc/vm/loc"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/buildssa"
	"golang.org/x/tools/go/ssa"
)

// Warning is one finding: where to report it, what it says, and the target
// locations a search must reach together (each by a distinct goroutine) to
// show it is real.
type Warning struct {
	Check   string // the analyzer's name
	Pos     token.Pos
	Msg     string
	Targets []loc.Loc
	// Via lists call sites through which the targets are reached: the call
	// made while holding the outer lock of a lock-order cycle, and, for
	// targets outside the root packages, the call sites in the roots
	// leading to them (added by Run).
	Via []loc.Loc
}

// Model is what a check sees of a program: the functions to check and a
// resolver of call sites. In a go/analysis pass it is one package with
// static callees; in gmc it is the whole program with the VTA call graph.
type Model struct {
	Funcs   []*ssa.Function // functions with bodies, in a deterministic order
	Callees func(ssa.CallInstruction) []*ssa.Function

	callers   map[*ssa.Function][]ssa.CallInstruction
	summary   map[*ssa.Function][]acquisition // memoized transitive acquisitions
	inFuncs   map[*ssa.Function]bool
	factCache map[*ssa.Function]*slice.Func
	succs     map[*ssa.Function][]*ssa.Function // memoized callees of each function (reach)
}

// facts returns the memoized post-dominators and control dependence of fn.
func (m *Model) facts(fn *ssa.Function) *slice.Func {
	if f, ok := m.factCache[fn]; ok {
		return f
	}
	f := slice.FuncFacts(fn)
	m.factCache[fn] = f
	return f
}

// NewModel builds a model over funcs; callees may be nil (static callees).
func NewModel(funcs []*ssa.Function, callees func(ssa.CallInstruction) []*ssa.Function) *Model {
	if callees == nil {
		callees = staticCallees
	}
	m := &Model{Funcs: funcs, Callees: callees, callers: map[*ssa.Function][]ssa.CallInstruction{},
		summary: map[*ssa.Function][]acquisition{}, inFuncs: map[*ssa.Function]bool{},
		factCache: map[*ssa.Function]*slice.Func{}, succs: map[*ssa.Function][]*ssa.Function{}}
	for _, fn := range funcs {
		m.inFuncs[fn] = true
	}
	for _, fn := range funcs {
		for _, b := range fn.Blocks {
			for _, in := range b.Instrs {
				if c, ok := in.(ssa.CallInstruction); ok {
					for _, g := range callees(c) {
						m.callers[g] = append(m.callers[g], c)
					}
				}
			}
		}
	}
	return m
}

func staticCallees(c ssa.CallInstruction) []*ssa.Function {
	if g := c.Common().StaticCallee(); g != nil {
		return []*ssa.Function{g}
	}
	return nil
}

// passModel is the model of one analysis pass: the package's source
// functions (closures included) with static callees.
func passModel(pass *analysis.Pass) *Model {
	s := pass.ResultOf[buildssa.Analyzer].(*buildssa.SSA)
	var funcs []*ssa.Function
	seen := map[*ssa.Function]bool{}
	var add func(fn *ssa.Function)
	add = func(fn *ssa.Function) {
		if seen[fn] || len(fn.Blocks) == 0 {
			return
		}
		seen[fn] = true
		funcs = append(funcs, fn)
		for _, a := range fn.AnonFuncs {
			add(a)
		}
	}
	for _, fn := range s.SrcFuncs {
		add(fn)
	}
	sort.SliceStable(funcs, func(i, j int) bool { return funcs[i].Pos() < funcs[j].Pos() })
	return NewModel(funcs, nil)
}

// report turns warnings into diagnostics of the pass.
func report(pass *analysis.Pass, ws []Warning) {
	for _, w := range ws {
		pass.Report(analysis.Diagnostic{Pos: w.Pos, Message: w.Msg})
	}
}

// goStarts returns the functions started by go statements in the model and
// whether each may run in more than one goroutine at once.
func (m *Model) goStarts() map[*ssa.Function]bool {
	multi := map[*ssa.Function]bool{}
	count := map[*ssa.Function]int{}
	for _, fn := range m.Funcs {
		for _, b := range fn.Blocks {
			for _, in := range b.Instrs {
				g, ok := in.(*ssa.Go)
				if !ok {
					continue
				}
				for _, callee := range m.Callees(g) {
					count[callee]++
					if inLoop(b) {
						count[callee]++
					}
				}
			}
		}
	}
	for f, n := range count {
		multi[f] = n > 1
	}
	return multi
}

// inLoop reports whether block b is on a CFG cycle.
func inLoop(b *ssa.BasicBlock) bool {
	seen := map[*ssa.BasicBlock]bool{}
	work := append([]*ssa.BasicBlock(nil), b.Succs...)
	for len(work) > 0 {
		x := work[len(work)-1]
		work = work[:len(work)-1]
		if x == b {
			return true
		}
		if seen[x] {
			continue
		}
		seen[x] = true
		work = append(work, x.Succs...)
	}
	return false
}

// reach returns the functions reachable from fns through calls of the
// model (go statements included), fns included.
func (m *Model) reach(fns ...*ssa.Function) map[*ssa.Function]bool {
	seen := map[*ssa.Function]bool{}
	work := make([]*ssa.Function, 0, len(fns))
	for _, fn := range fns {
		if !seen[fn] {
			seen[fn] = true
			work = append(work, fn)
		}
	}
	for len(work) > 0 {
		f := work[len(work)-1]
		work = work[:len(work)-1]
		for _, g := range m.calls(f) {
			if !seen[g] {
				seen[g] = true
				work = append(work, g)
			}
		}
	}
	return seen
}

// calls returns the functions f's call instructions may invoke, each once
// (memoized: reach walks the same functions from every go statement).
func (m *Model) calls(f *ssa.Function) []*ssa.Function {
	if out, ok := m.succs[f]; ok {
		return out
	}
	var out []*ssa.Function
	in := map[*ssa.Function]bool{}
	for _, b := range f.Blocks {
		for _, instr := range b.Instrs {
			if c, ok := instr.(ssa.CallInstruction); ok {
				for _, g := range m.Callees(c) {
					if !in[g] {
						in[g] = true
						out = append(out, g)
					}
				}
			}
		}
	}
	m.succs[f] = out
	return out
}
