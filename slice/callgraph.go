package slice

import (
	"sort"
	"sync"

	"github.com/gmc-go/gmc/vm/loc"
	"golang.org/x/tools/go/callgraph"
	"golang.org/x/tools/go/callgraph/cha"
	"golang.org/x/tools/go/callgraph/vta"
	"golang.org/x/tools/go/ssa"
	"golang.org/x/tools/go/ssa/ssautil"
)

// Program is the dependence information of one SSA program.
type Program struct {
	SSA *ssa.Program
	CG  *callgraph.Graph

	funcs   map[*ssa.Function]*Func
	all     map[*ssa.Function]bool
	defines map[Class][]loc.Loc
	cross   map[crossKey][]loc.Loc
	defByFn map[Class]map[*ssa.Function][]loc.Loc
	callees map[ssa.CallInstruction][]*ssa.Function
	callers map[*ssa.Function][]Site
	mem     *memIndex
	closed  *closedMem                 // the memory index while no package is open (shared by forks)
	seq     *seqIndex                  // the call graph numbered (shared by forks)
	seqTo   map[*ssa.Function][]uint64 // what can run before a function (SeqReaches)
	open    map[*ssa.Package]bool      // standard-library packages sliced as code (Open)
	libPkgs map[*ssa.Package]bool      // isLibrary's answers
}

// SiteKind says how a call site transfers control.
type SiteKind uint8

const (
	Call  SiteKind = iota // an ordinary call: the callee returns to the site
	Go                    // a go statement: the callee starts a new goroutine
	Defer                 // a defer statement: the callee runs when the function exits
)

func (k SiteKind) String() string {
	return [...]string{"call", "go", "defer"}[k]
}

// Site is one call site and the callee it may invoke.
type Site struct {
	Loc    loc.Loc
	Instr  ssa.CallInstruction
	Kind   SiteKind
	Callee *ssa.Function
}

// New builds the call graph of prog (VTA over every function, seeded by CHA)
// and returns an empty dependence cache over it. The graph is built once
// per program (the last one New was called with) and shared: a check of
// every test of a package slices the same program for each, and VTA over
// testify's assert took 0.5 s of CPU each time, for a test that then took
// 0.1 s. Each Program New returns has its own caches, so different
// goroutines may use different ones.
func New(prog *ssa.Program) *Program {
	shared.mu.Lock()
	if shared.prog != prog {
		shared.prog, shared.g = prog, &sharedGraph{}
	}
	g := shared.g
	shared.mu.Unlock()
	g.once.Do(func() {
		funcs := ssautil.AllFunctions(prog)
		cg := vta.CallGraph(funcs, cha.CallGraph(prog))
		g.base = NewWithCallGraph(prog, cg)
		g.base.all = funcs
	})
	return g.base.fork()
}

// shared holds the call graph of the last program New sliced.
var shared struct {
	mu   sync.Mutex
	prog *ssa.Program
	g    *sharedGraph
}

// sharedGraph is a program's call graph and call sites, built once; base
// is never used but to fork from (its caches stay empty).
type sharedGraph struct {
	once sync.Once
	base *Program
}

// fork returns a Program over p's call graph, call sites and functions,
// which it only reads (they are complete once NewWithCallGraph returns),
// with caches of its own.
func (p *Program) fork() *Program {
	q := &Program{SSA: p.SSA, CG: p.CG, all: p.all, callees: p.callees, callers: p.callers, seq: p.seq, closed: p.closed}
	q.newCaches()
	return q
}

// newCaches gives p empty caches (everything but the call graph, the
// call sites and the functions).
func (p *Program) newCaches() {
	p.funcs = map[*ssa.Function]*Func{}
	p.seqTo = map[*ssa.Function][]uint64{}
	p.defines = map[Class][]loc.Loc{}
	p.cross = map[crossKey][]loc.Loc{}
	p.defByFn = map[Class]map[*ssa.Function][]loc.Loc{}
	p.open = map[*ssa.Package]bool{}
	p.libPkgs = map[*ssa.Package]bool{}
	p.mem = nil
}

// allFuncs returns every function of the program (memoized).
func (p *Program) allFuncs() map[*ssa.Function]bool {
	if p.all == nil {
		p.all = ssautil.AllFunctions(p.SSA)
	}
	return p.all
}

// NewWithCallGraph is New with a call graph the caller already has.
func NewWithCallGraph(prog *ssa.Program, cg *callgraph.Graph) *Program {
	cg.DeleteSyntheticNodes()
	p := &Program{
		SSA: prog, CG: cg,
		callees: map[ssa.CallInstruction][]*ssa.Function{},
		callers: map[*ssa.Function][]Site{},
		seq:     &seqIndex{},
		closed:  &closedMem{},
	}
	p.newCaches()
	for fn, n := range cg.Nodes {
		if fn == nil {
			continue
		}
		for _, e := range n.Out {
			if e.Site == nil || e.Callee.Func == nil {
				continue
			}
			p.addEdge(e.Site, e.Callee.Func)
		}
	}
	// Static callees missing from the graph (e.g. calls inside functions
	// the graph did not cover) are added from the instruction itself.
	for fn := range cg.Nodes {
		if fn == nil {
			continue
		}
		for _, b := range fn.Blocks {
			for _, in := range b.Instrs {
				if c, ok := in.(ssa.CallInstruction); ok {
					if g := c.Common().StaticCallee(); g != nil {
						p.addEdge(c, g)
					}
				}
			}
		}
	}
	// Callbacks: a function value passed to a function without a body (the
	// testing package's t.Run and f.Fuzz, sort.Slice, sync.Once.Do, ...)
	// may be called by it; the call site is taken to call it.
	for fn := range cg.Nodes {
		if fn == nil {
			continue
		}
		for _, c := range CallSites(fn) {
			if _, ok := c.(*ssa.Call); !ok || p.hasBody(p.callees[c]) {
				continue
			}
			for _, a := range c.Common().Args {
				if mi, ok := a.(*ssa.MakeInterface); ok {
					a = mi.X
				}
				switch a := a.(type) {
				case *ssa.MakeClosure:
					p.addEdge(c, a.Fn.(*ssa.Function))
				case *ssa.Function:
					p.addEdge(c, a)
				}
			}
		}
	}
	for _, fs := range p.callees {
		sort.Slice(fs, func(i, j int) bool { return FuncLess(fs[i], fs[j]) })
	}
	for _, ss := range p.callers {
		sortSites(ss)
	}
	return p
}

func (p *Program) addEdge(site ssa.CallInstruction, callee *ssa.Function) {
	for _, g := range p.callees[site] {
		if g == callee {
			return
		}
	}
	p.callees[site] = append(p.callees[site], callee)
	p.callers[callee] = append(p.callers[callee], Site{
		Loc: loc.Of(site), Instr: site, Kind: siteKind(site), Callee: callee,
	})
}

func siteKind(c ssa.CallInstruction) SiteKind {
	switch c.(type) {
	case *ssa.Go:
		return Go
	case *ssa.Defer:
		return Defer
	}
	return Call
}

// KindOf returns how the call instruction transfers control.
func KindOf(c ssa.CallInstruction) SiteKind { return siteKind(c) }

func sortSites(ss []Site) {
	sort.Slice(ss, func(i, j int) bool { return Less(ss[i].Loc, ss[j].Loc) })
}

// Less orders locations deterministically: by function name, block, index.
func Less(a, b loc.Loc) bool {
	if a.Fn != b.Fn {
		return FuncLess(a.Fn, b.Fn)
	}
	if a.Block != b.Block {
		return a.Block < b.Block
	}
	return a.Index < b.Index
}

// FuncLess orders functions by name; a function of a package's test variant
// (which has more members) comes before its twin in the package itself.
func FuncLess(f, g *ssa.Function) bool {
	fs, gs := funcName(f), funcName(g)
	if fs != gs {
		return fs < gs
	}
	return members(f) > members(g)
}

// names caches ssa.Function.String, which is costly, for sorting.
var names sync.Map // *ssa.Function -> string

func funcName(f *ssa.Function) string {
	if s, ok := names.Load(f); ok {
		return s.(string)
	}
	s := f.String()
	names.Store(f, s)
	return s
}

func members(f *ssa.Function) int {
	if f.Pkg == nil {
		return 0
	}
	return len(f.Pkg.Members)
}

// SortLocs sorts ls with Less.
func SortLocs(ls []loc.Loc) {
	sort.Slice(ls, func(i, j int) bool { return Less(ls[i], ls[j]) })
}

// Callees returns the functions the call site may invoke, sorted by name.
func (p *Program) Callees(site ssa.CallInstruction) []*ssa.Function {
	return p.callees[site]
}

// Callers returns the call sites that may invoke fn (go and defer included).
func (p *Program) Callers(fn *ssa.Function) []Site { return p.callers[fn] }

// CallSites returns the call instructions of fn with their kinds, in order.
func CallSites(fn *ssa.Function) []ssa.CallInstruction {
	var out []ssa.CallInstruction
	for _, b := range fn.Blocks {
		for _, in := range b.Instrs {
			if c, ok := in.(ssa.CallInstruction); ok {
				out = append(out, c)
			}
		}
	}
	return out
}

// ReachableFrom returns the functions reachable from the roots through
// call, go and defer edges (roots included). A standard-library function
// (Library) is reached but not entered.
func (p *Program) ReachableFrom(roots []*ssa.Function) map[*ssa.Function]bool {
	seen := map[*ssa.Function]bool{}
	work := append([]*ssa.Function(nil), roots...)
	for _, r := range roots {
		seen[r] = true
	}
	for len(work) > 0 {
		fn := work[len(work)-1]
		work = work[:len(work)-1]
		if p.Library(fn) {
			continue
		}
		for _, c := range CallSites(fn) {
			for _, g := range p.callees[c] {
				if !seen[g] {
					seen[g] = true
					work = append(work, g)
				}
			}
		}
	}
	return seen
}

// Reaching returns the functions from which one of the given functions can
// be reached through call, go and defer edges (the functions included).
func (p *Program) Reaching(fns []*ssa.Function) map[*ssa.Function]bool {
	seen := map[*ssa.Function]bool{}
	work := append([]*ssa.Function(nil), fns...)
	for _, f := range fns {
		seen[f] = true
	}
	for len(work) > 0 {
		fn := work[len(work)-1]
		work = work[:len(work)-1]
		for _, s := range p.callers[fn] {
			if g := s.Loc.Fn; !seen[g] {
				seen[g] = true
				work = append(work, g)
			}
		}
	}
	return seen
}

// GoStarts returns the functions started by go statements in the given
// functions' reach, sorted by name.
func (p *Program) GoStarts(reach map[*ssa.Function]bool) []*ssa.Function {
	set := map[*ssa.Function]bool{}
	for fn := range reach {
		if p.Library(fn) {
			continue
		}
		for _, c := range CallSites(fn) {
			if _, ok := c.(*ssa.Go); ok {
				for _, g := range p.callees[c] {
					set[g] = true
				}
			}
		}
	}
	out := make([]*ssa.Function, 0, len(set))
	for f := range set {
		out = append(out, f)
	}
	sort.Slice(out, func(i, j int) bool { return FuncLess(out[i], out[j]) })
	return out
}

// hasBody reports whether one of fns has a body the slice looks into.
func (p *Program) hasBody(fns []*ssa.Function) bool {
	for _, f := range fns {
		if len(f.Blocks) > 0 && !p.Library(f) {
			return true
		}
	}
	return false
}
