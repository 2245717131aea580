package slice

import (
	"github.com/gmc-go/gmc/vm/loc"
	"golang.org/x/tools/go/ssa"
)

// CtrlDep is one control dependence: the branch instruction ending a block and
// the index of the successor that must be taken.
type CtrlDep struct {
	Branch loc.Loc // the If (or other multi-way terminator) deciding
	Succ   int     // index into Branch's block's Succs
}

// Func holds the intraprocedural facts of one function.
type Func struct {
	Fn *ssa.Function
	// IPDom is the immediate post-dominator of each block; len(Fn.Blocks)
	// stands for the virtual exit (and is its own IPDom).
	IPDom []int
	// CD lists, for each block, the branches it is control dependent on.
	CD [][]CtrlDep
	// reach[b] is the set of blocks reachable from b by one or more edges.
	reach [][]uint64
}

// funcInfo returns the memoized facts of fn (nil if fn has no body).
func (p *Program) funcInfo(fn *ssa.Function) *Func {
	if len(fn.Blocks) == 0 {
		return nil
	}
	if f, ok := p.funcs[fn]; ok {
		return f
	}
	f := FuncFacts(fn)
	p.funcs[fn] = f
	return f
}

// FuncFacts computes the intraprocedural facts of fn (which must have a
// body) without a Program.
func FuncFacts(fn *ssa.Function) *Func {
	f := &Func{Fn: fn}
	f.IPDom = postDominators(fn)
	f.CD = controlDeps(fn, f.IPDom)
	return f
}

// Func returns the intraprocedural facts of fn, or nil if fn has no body.
func (p *Program) Func(fn *ssa.Function) *Func { return p.funcInfo(fn) }

// exitBlocks are the blocks that flow to the virtual exit: those without
// successors, and those that cannot reach such a block (infinite loops).
func exitBlocks(fn *ssa.Function) []bool {
	n := len(fn.Blocks)
	exit := make([]bool, n)
	reaches := make([]bool, n)
	var work []int
	for _, b := range fn.Blocks {
		if len(b.Succs) == 0 {
			exit[b.Index] = true
			reaches[b.Index] = true
			work = append(work, b.Index)
		}
	}
	mark := func() {
		for len(work) > 0 {
			b := work[len(work)-1]
			work = work[:len(work)-1]
			for _, pr := range fn.Blocks[b].Preds {
				if !reaches[pr.Index] {
					reaches[pr.Index] = true
					work = append(work, pr.Index)
				}
			}
		}
	}
	mark()
	// Blocks in loops without exit: connect the highest-numbered block of
	// each such region to the exit, then propagate, until all reach it.
	for {
		last := -1
		for i := n - 1; i >= 0; i-- {
			if !reaches[i] {
				last = i
				break
			}
		}
		if last < 0 {
			return exit
		}
		exit[last] = true
		reaches[last] = true
		work = append(work, last)
		mark()
	}
}

// postDominators computes immediate post-dominators with the iterative
// algorithm of Cooper, Harvey and Kennedy on the reversed CFG.
func postDominators(fn *ssa.Function) []int {
	n := len(fn.Blocks)
	exitNode := n
	exit := exitBlocks(fn)
	// Reverse graph: successors of x are x's CFG predecessors; the exit's
	// successors are the exit blocks. Predecessors in the reverse graph are
	// CFG successors (plus the exit for exit blocks).
	rsuccs := func(x int) []int {
		if x == exitNode {
			var out []int
			for i := n - 1; i >= 0; i-- {
				if exit[i] {
					out = append(out, i)
				}
			}
			return out
		}
		var out []int
		for _, pr := range fn.Blocks[x].Preds {
			out = append(out, pr.Index)
		}
		return out
	}
	rpreds := func(x int) []int {
		var out []int
		for _, s := range fn.Blocks[x].Succs {
			out = append(out, s.Index)
		}
		if exit[x] {
			out = append(out, exitNode)
		}
		return out
	}
	// Reverse postorder of the reverse graph from the exit.
	order := make([]int, 0, n+1)
	num := make([]int, n+1)
	for i := range num {
		num[i] = -1
	}
	seen := make([]bool, n+1)
	var dfs func(int)
	dfs = func(x int) {
		seen[x] = true
		for _, y := range rsuccs(x) {
			if !seen[y] {
				dfs(y)
			}
		}
		order = append(order, x)
	}
	dfs(exitNode)
	for i, j := 0, len(order)-1; i < j; i, j = i+1, j-1 {
		order[i], order[j] = order[j], order[i]
	}
	for i, x := range order {
		num[x] = i
	}
	idom := make([]int, n+1)
	for i := range idom {
		idom[i] = -1
	}
	idom[exitNode] = exitNode
	intersect := func(a, b int) int {
		for a != b {
			for num[a] > num[b] {
				a = idom[a]
			}
			for num[b] > num[a] {
				b = idom[b]
			}
		}
		return a
	}
	for changed := true; changed; {
		changed = false
		for _, x := range order[1:] {
			nd := -1
			for _, pr := range rpreds(x) {
				if idom[pr] == -1 {
					continue
				}
				if nd == -1 {
					nd = pr
				} else {
					nd = intersect(pr, nd)
				}
			}
			if nd != -1 && idom[x] != nd {
				idom[x] = nd
				changed = true
			}
		}
	}
	for i := range idom {
		if idom[i] == -1 { // unreachable from the exit in reverse: cannot happen
			idom[i] = exitNode
		}
	}
	return idom
}

// controlDeps computes block-level control dependence from the post-dominator
// tree (Ferrante, Ottenstein and Warren).
func controlDeps(fn *ssa.Function, ipdom []int) [][]CtrlDep {
	n := len(fn.Blocks)
	cd := make([][]CtrlDep, n)
	for _, a := range fn.Blocks {
		if len(a.Succs) < 2 {
			continue
		}
		br := loc.Loc{Fn: fn, Block: a.Index, Index: len(a.Instrs) - 1}
		for i, s := range a.Succs {
			for r := s.Index; r != ipdom[a.Index] && r != n; r = ipdom[r] {
				cd[r] = appendDep(cd[r], CtrlDep{br, i})
			}
		}
	}
	return cd
}

func appendDep(ds []CtrlDep, d CtrlDep) []CtrlDep {
	for _, x := range ds {
		if x == d {
			return ds
		}
	}
	return append(ds, d)
}

// PostDominates reports whether block b post-dominates block a (every path
// from a to the exit passes through b); a block post-dominates itself.
func (f *Func) PostDominates(b, a int) bool {
	n := len(f.Fn.Blocks)
	for x := a; ; x = f.IPDom[x] {
		if x == b {
			return true
		}
		if x == n {
			return false
		}
	}
}

// BlockReaches reports whether there is a CFG path of one or more edges from
// block a to block b.
func (f *Func) BlockReaches(a, b int) bool {
	if f.reach == nil {
		f.reach = make([][]uint64, len(f.Fn.Blocks))
	}
	if f.reach[a] == nil {
		set := make([]uint64, (len(f.Fn.Blocks)+63)/64)
		work := []int{a}
		for len(work) > 0 {
			x := work[len(work)-1]
			work = work[:len(work)-1]
			for _, s := range f.Fn.Blocks[x].Succs {
				if set[s.Index/64]&(1<<(s.Index%64)) == 0 {
					set[s.Index/64] |= 1 << (s.Index % 64)
					work = append(work, s.Index)
				}
			}
		}
		f.reach[a] = set
	}
	return f.reach[a][b/64]&(1<<(b%64)) != 0
}

// Path reports whether there is a CFG path from instruction a to instruction b
// of the same function (cfgPath of the main seed, Def. 2): b follows a in its
// block, or b's block is reachable from a's.
func (f *Func) Path(a, b loc.Loc) bool {
	if a.Block == b.Block && a.Index < b.Index {
		return true
	}
	return f.BlockReaches(a.Block, b.Block)
}

// Branch returns the terminator of block b if it has two or more successors.
func Branch(fn *ssa.Function, b int) (loc.Loc, bool) {
	blk := fn.Blocks[b]
	if len(blk.Succs) < 2 {
		return loc.Loc{}, false
	}
	return loc.Loc{Fn: fn, Block: b, Index: len(blk.Instrs) - 1}, true
}

// Start is the location of fn's first instruction (its start location).
func Start(fn *ssa.Function) loc.Loc { return loc.Loc{Fn: fn} }
