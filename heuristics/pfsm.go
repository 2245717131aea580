package heuristics

import (
	"sync"

	"github.com/emirpasic/gods/trees/binaryheap"
	"golang.org/x/tools/go/ssa"

	"github.com/gmc-go/gmc/slice"
	"github.com/gmc-go/gmc/vm/loc"
)

// Inf is the distance of an unreachable location.
const Inf = 1 << 30

// dynamicCallCost is the seed's conservative cost of stepping over a call
// whose callee is not known statically.
const dynamicCallCost = 2

// Distance estimates the distance from a goroutine's stack to a location.
type Distance interface {
	// Distance returns the estimated number of instructions a goroutine
	// with the given stack (innermost frame first; caller frames at their
	// call instruction) executes before reaching target; Inf if it cannot.
	Distance(stack []loc.Loc, target loc.Loc) int
}

// PFSM implements the polymorphic distance heuristic (or FSM when
// contextInsensitive is set).
type PFSM struct {
	prog               *slice.Program
	contextInsensitive bool

	mu       sync.Mutex
	graphs   map[*ssa.Function]*cfgGraph
	toTarget map[targetKey][]int
	active   map[targetKey]bool
	exitDist map[*ssa.Function][]int
	exitCost map[*ssa.Function]int
	reaching map[*ssa.Function]map[*ssa.Function]bool
}

type targetKey struct {
	fn     *ssa.Function
	target loc.Loc
}

// NewPFSM returns the PFSM heuristic over the call graph of prog.
func NewPFSM(prog *slice.Program) *PFSM { return newDist(prog, false) }

// NewFSM returns the context-insensitive FSM heuristic.
func NewFSM(prog *slice.Program) *PFSM { return newDist(prog, true) }

func newDist(prog *slice.Program, ci bool) *PFSM {
	return &PFSM{
		prog: prog, contextInsensitive: ci,
		graphs:   map[*ssa.Function]*cfgGraph{},
		toTarget: map[targetKey][]int{},
		active:   map[targetKey]bool{},
		exitDist: map[*ssa.Function][]int{},
		exitCost: map[*ssa.Function]int{},
		reaching: map[*ssa.Function]map[*ssa.Function]bool{},
	}
}

// cfgGraph numbers the instructions of a function: node = start[block]+index.
type cfgGraph struct {
	fn    *ssa.Function
	start []int
	n     int
	instr []ssa.Instruction
}

func (p *PFSM) graph(fn *ssa.Function) *cfgGraph {
	if g, ok := p.graphs[fn]; ok {
		return g
	}
	g := &cfgGraph{fn: fn, start: make([]int, len(fn.Blocks))}
	for i, b := range fn.Blocks {
		g.start[i] = g.n
		g.n += len(b.Instrs)
		g.instr = append(g.instr, b.Instrs...)
	}
	p.graphs[fn] = g
	return g
}

func (g *cfgGraph) node(l loc.Loc) int {
	if l.Block < 0 || l.Block >= len(g.start) {
		return -1
	}
	return g.start[l.Block] + l.Index
}

// succs returns the successor nodes of node n.
func (g *cfgGraph) succs(n int) []int {
	in := g.instr[n]
	b := in.Block()
	last := g.start[b.Index] + len(b.Instrs) - 1
	if n < last {
		return []int{n + 1}
	}
	out := make([]int, 0, len(b.Succs))
	for _, s := range b.Succs {
		out = append(out, g.start[s.Index])
	}
	return out
}

// stepCost is the cost of executing instruction n (stepping over calls).
func (p *PFSM) stepCost(g *cfgGraph, n int) int {
	c, ok := g.instr[n].(*ssa.Call)
	if !ok {
		return 1
	}
	if callee := c.Call.StaticCallee(); callee != nil && c.Call.Method == nil {
		return 1 + p.calleeExitCost(callee)
	}
	if !p.contextInsensitive {
		return dynamicCallCost
	}
	best := Inf
	for _, callee := range p.prog.Callees(c) {
		if d := p.calleeExitCost(callee); d < best {
			best = d
		}
	}
	if best == Inf {
		return dynamicCallCost
	}
	return 1 + best
}

// calleeExitCost is a function's start→end distance; recursive and bodiless
// functions cost the conservative 2.
func (p *PFSM) calleeExitCost(fn *ssa.Function) int {
	if c, ok := p.exitCost[fn]; ok {
		return c
	}
	if len(fn.Blocks) == 0 {
		return dynamicCallCost
	}
	p.exitCost[fn] = dynamicCallCost // recursion guard
	d := p.exitDistances(fn)[0]
	if d >= Inf {
		d = dynamicCallCost
	}
	p.exitCost[fn] = d
	return d
}

// exitDistances returns, per node of fn, the distance to a return.
func (p *PFSM) exitDistances(fn *ssa.Function) []int {
	if d, ok := p.exitDist[fn]; ok {
		return d
	}
	g := p.graph(fn)
	var sources []int
	for n, in := range g.instr {
		if _, ok := in.(*ssa.Return); ok {
			sources = append(sources, n)
		}
	}
	d := p.backward(g, sources, func(int) int { return 0 })
	p.exitDist[fn] = d
	return d
}

// backward runs Dijkstra on the reversed CFG of g from the given source
// nodes with their initial costs.
func (p *PFSM) backward(g *cfgGraph, sources []int, initial func(n int) int) []int {
	dist := make([]int, g.n)
	for i := range dist {
		dist[i] = Inf
	}
	preds := make([][]int, g.n)
	for n := 0; n < g.n; n++ {
		for _, s := range g.succs(n) {
			preds[s] = append(preds[s], n)
		}
	}
	type item struct{ n, d int }
	pq := binaryheap.NewWith(func(a, b interface{}) int { return a.(item).d - b.(item).d })
	for _, s := range sources {
		if c := initial(s); c < dist[s] {
			dist[s] = c
			pq.Push(item{s, c})
		}
	}
	costs := make([]int, g.n)
	for n := range costs {
		costs[n] = -1
	}
	for !pq.Empty() {
		v, _ := pq.Pop()
		it := v.(item)
		if it.d > dist[it.n] {
			continue
		}
		for _, pr := range preds[it.n] {
			if costs[pr] < 0 {
				costs[pr] = p.stepCost(g, pr)
			}
			if nd := it.d + costs[pr]; nd < dist[pr] {
				dist[pr] = nd
				pq.Push(item{pr, nd})
			}
		}
	}
	return dist
}

// reachers returns the functions that may (transitively) call or start fn.
func (p *PFSM) reachers(fn *ssa.Function) map[*ssa.Function]bool {
	if r, ok := p.reaching[fn]; ok {
		return r
	}
	r := p.prog.Reaching([]*ssa.Function{fn})
	p.reaching[fn] = r
	return r
}

// distancesTo returns, per node of fn, the distance to target going forward
// in fn or through its call and go sites.
func (p *PFSM) distancesTo(fn *ssa.Function, target loc.Loc) []int {
	key := targetKey{fn, target}
	if d, ok := p.toTarget[key]; ok {
		return d
	}
	g := p.graph(fn)
	if p.active[key] || len(fn.Blocks) == 0 {
		return nil // recursion: bound the branch
	}
	p.active[key] = true
	defer delete(p.active, key)
	reach := p.reachers(target.Fn)
	init := map[int]int{}
	if fn == target.Fn {
		if n := g.node(target); n >= 0 {
			init[n] = 0
		}
	}
	for n, in := range g.instr {
		ci, ok := in.(ssa.CallInstruction)
		if !ok {
			continue
		}
		best := Inf
		for _, callee := range p.calleesOf(ci) {
			if callee != target.Fn && !reach[callee] {
				continue
			}
			if d := p.distancesTo(callee, target); d != nil && d[0] < Inf {
				if d[0]+1 < best {
					best = d[0] + 1
				}
			}
		}
		if best < Inf {
			if old, ok := init[n]; !ok || best < old {
				init[n] = best
			}
		}
	}
	sources := make([]int, 0, len(init))
	for n := range init {
		sources = append(sources, n)
	}
	d := p.backward(g, sources, func(n int) int { return init[n] })
	p.toTarget[key] = d
	return d
}

func (p *PFSM) calleesOf(ci ssa.CallInstruction) []*ssa.Function {
	if callee := ci.Common().StaticCallee(); callee != nil && ci.Common().Method == nil {
		return []*ssa.Function{callee}
	}
	return p.prog.Callees(ci)
}

// Distance implements Distance, unrolling the stack: from the innermost
// frame forward, or returning from it and continuing in its caller.
func (p *PFSM) Distance(stack []loc.Loc, target loc.Loc) int {
	if len(stack) == 0 || target.Fn == nil {
		return Inf
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	best := Inf
	acc := 0
	for k, fr := range stack {
		if fr.Fn == nil || len(fr.Fn.Blocks) == 0 {
			break
		}
		g := p.graph(fr.Fn)
		n := g.node(fr)
		if n < 0 || n >= g.n {
			break
		}
		if k > 0 {
			// a caller resumes after its call instruction
			if ss := g.succs(n); len(ss) > 0 {
				n = ss[0]
			}
		}
		if d := p.distancesTo(fr.Fn, target); d != nil && d[n] < Inf && acc+d[n] < best {
			best = acc + d[n]
		}
		ex := p.exitDistances(fr.Fn)[n]
		if ex >= Inf {
			break
		}
		acc += ex + 1
		if acc >= best {
			break
		}
	}
	return best
}
