package slice

// This file holds SeqReaches: whether code of one function can run before
// code of another in one sequential execution, answered from one set per
// later function (the functions that can run before it), each made by two
// walks of the call graph numbered once.

import (
	"sync"

	"golang.org/x/tools/go/ssa"
)

// seqIndex numbers the functions of the call graph and lists, by number,
// the callers of each (every kind of site) and its synchronous callees
// (call and defer sites: the reverse of the callers without go edges).
// It is built on first use, after the call graph is complete, and only
// read afterwards: the forks of a Program share it.
type seqIndex struct {
	once  sync.Once
	id    map[*ssa.Function]int32
	up    [][]int32 // callers
	down  [][]int32 // synchronous callees
	inits []uint64  // the synchronous callees of initializers, transitively (a set of numbers)
}

// index returns p's seqIndex, built on first use.
func (p *Program) index() *seqIndex {
	ix := p.seq
	ix.once.Do(func() {
		ix.id = map[*ssa.Function]int32{}
		num := func(fn *ssa.Function) int32 {
			i, ok := ix.id[fn]
			if !ok {
				i = int32(len(ix.id))
				ix.id[fn] = i
				ix.up = append(ix.up, nil)
				ix.down = append(ix.down, nil)
			}
			return i
		}
		for g, sites := range p.callers {
			gi := num(g)
			for _, s := range sites {
				ci := num(s.Loc.Fn)
				ix.up[gi] = append(ix.up[gi], ci)
				if s.Kind != Go {
					ix.down[ci] = append(ix.down[ci], gi)
				}
			}
		}
		ix.inits = make([]uint64, (len(ix.id)+63)/64)
		var work []int32
		for fn, i := range ix.id {
			if isInit(fn) {
				setBit(ix.inits, i)
				work = append(work, i)
			}
		}
		ix.closeDown(ix.inits, work)
	})
	return ix
}

// closeDown adds to set the synchronous callees of work's functions,
// transitively; work's functions are in set already, and so are the
// synchronous callees of every other function in set.
func (ix *seqIndex) closeDown(set []uint64, work []int32) {
	for len(work) > 0 {
		i := work[len(work)-1]
		work = work[:len(work)-1]
		for _, j := range ix.down[i] {
			if !hasBit(set, j) {
				setBit(set, j)
				work = append(work, j)
			}
		}
	}
}

// before returns the numbers of the functions whose code can run before
// code of u in one sequential execution: the synchronous callees,
// transitively, of the functions reaching u (through calls of every kind,
// u included) and of the initializers.
func (p *Program) before(u *ssa.Function) []uint64 {
	if s, ok := p.seqTo[u]; ok {
		return s
	}
	ix := p.index()
	set := append([]uint64(nil), ix.inits...)
	if ui, ok := ix.id[u]; ok {
		reach := make([]uint64, len(set))
		setBit(reach, ui)
		up := []int32{ui}
		var work []int32
		for len(up) > 0 {
			i := up[len(up)-1]
			up = up[:len(up)-1]
			if !hasBit(set, i) {
				setBit(set, i)
				work = append(work, i)
			}
			for _, j := range ix.up[i] {
				if !hasBit(reach, j) {
					setBit(reach, j)
					up = append(up, j)
				}
			}
		}
		ix.closeDown(set, work)
	}
	p.seqTo[u] = set
	return set
}

// SeqReaches reports whether code of function d can run before code of
// function u in one sequential (interprocedural, go-as-call, no return from a
// goroutine) execution: some synchronous caller of d, or d itself, reaches u,
// or d runs under a package initializer.
func (p *Program) SeqReaches(d, u *ssa.Function) bool {
	if d == u {
		return true
	}
	di, ok := p.index().id[d]
	if !ok {
		// no call site calls d or is in d: d reaches only itself, and only
		// an initializer runs it
		return isInit(d)
	}
	return hasBit(p.before(u), di)
}

func isInit(fn *ssa.Function) bool {
	return fn.Synthetic == "package initializer" || (fn.Parent() == nil && fn.Signature.Recv() == nil && len(fn.Name()) > 4 && fn.Name()[:4] == "init" && fn.Name()[4] == '#')
}

func setBit(s []uint64, i int32)      { s[i>>6] |= 1 << (i & 63) }
func hasBit(s []uint64, i int32) bool { return s[i>>6]&(1<<(i&63)) != 0 }
