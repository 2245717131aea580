package warn

import (
	"slices"
	"sort"
	"sync"

	"github.com/gmc-go/gmc/abstract"
	"github.com/gmc-go/gmc/slice"
	"github.com/gmc-go/gmc/vm/load"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"
)

// Analyzers are gmc's warning generators, for go vet -vettool, gopls,
// multichecker drivers and analysistest.
var Analyzers = []*analysis.Analyzer{LockOrder, DoubleLock, MissingUnlock, ChanBlock, Lockset, CondWait}

// Checks are the SSA cores of the analyzers, by name, over a Model.
var Checks = map[string]func(*Model) []Warning{
	"lockorder":     CheckLockOrder,
	"doublelock":    CheckDoubleLock,
	"missingunlock": CheckMissingUnlock,
	"chanblock":     CheckChanBlock,
	"lockset":       func(m *Model) []Warning { return CheckLockset(nil, m) },
	"condwait":      CheckCondWait,
}

// ProgramModel is the model of an already loaded program: the functions of
// its module and non-standard dependencies, with callees from the
// whole-program call graph.
func ProgramModel(p *load.Program, sp *slice.Program) *Model {
	return NewModel(abstract.ModuleFuncs(p), func(c ssa.CallInstruction) []*ssa.Function {
		return sp.Callees(c)
	})
}

// Run runs every check on a loaded program and returns the warnings sorted
// by position, then check name. The checks run once per program (the
// warnings depend on it alone: sp is the program's call graph, whichever
// slice forked from it is passed): a package's every test asks for them
// as its check is planned, and they took 3.6 s of CPU for each test of
// prometheus/client_golang's prometheus package. The slice returned is
// the caller's; the warnings in it are shared and not to be changed.
func Run(p *load.Program, sp *slice.Program) []Warning {
	type runKey struct{}
	type runMemo struct {
		once sync.Once
		ws   []Warning
	}
	v, _ := p.Memo.LoadOrStore(runKey{}, &runMemo{})
	rm := v.(*runMemo)
	rm.once.Do(func() { rm.ws = run(p, sp) })
	return slices.Clone(rm.ws)
}

// run is Run without the memo.
func run(p *load.Program, sp *slice.Program) []Warning {
	m := ProgramModel(p, sp)
	names := make([]string, 0, len(Checks))
	for n := range Checks {
		names = append(names, n)
	}
	sort.Strings(names)
	roots := map[*ssa.Function]bool{}
	for _, fn := range abstract.RootFuncs(p) {
		roots[fn] = true
	}
	var out []Warning
	seen := map[string]bool{}
	for _, n := range names {
		for _, w := range Checks[n](m) {
			k := w.Check + " " + p.Fset.Position(w.Pos).String()
			if seen[k] || !fromRoots(w, sp, roots) {
				continue
			}
			seen[k] = true
			for _, t := range w.Targets {
				for _, v := range abstract.RootCallers(roots, sp, t) {
					if !slices.Contains(w.Via, v) {
						w.Via = append(w.Via, v)
					}
				}
			}
			out = append(out, w)
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		pi, pj := p.Fset.Position(out[i].Pos), p.Fset.Position(out[j].Pos)
		if pi.Filename != pj.Filename {
			return pi.Filename < pj.Filename
		}
		if pi.Offset != pj.Offset {
			return pi.Offset < pj.Offset
		}
		return out[i].Check < out[j].Check
	})
	return out
}

// fromRoots reports whether a warning concerns the root packages: a target
// is in one, or reachable from one through calls.
func fromRoots(w Warning, sp *slice.Program, roots map[*ssa.Function]bool) bool {
	for _, t := range w.Targets {
		if roots[t.Fn] || len(abstract.RootCallers(roots, sp, t)) > 0 {
			return true
		}
	}
	return false
}
