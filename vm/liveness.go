package vm

import (
	"sync"

	"golang.org/x/tools/go/ssa"
)

// Register liveness, for the hang check (hang.go): a register no
// instruction reachable from a frame's position reads (a value received
// and dropped, a loop variable of an iteration past) cannot change the
// frame's future, so two idle states that differ only there are the same
// state. A register is live at a position if an instruction from there on
// reads it before one defines it again: φ-nodes read their operand at the
// end of the predecessor, and the registers the recover block reads are
// live everywhere (a panic can jump there from any call). The result is an
// over-approximation (every operand of the instruction at the position
// counts, a call's pending result included), so a state is never merged
// with one whose future differs.

// liveness holds, per block, the registers live at its start (the
// fixpoint), and the registers live before each position asked for so far
// (at, computed on demand from the end of its block: a table-driven test
// function of 70,000 registers and instructions took minutes and gigabytes
// when every position's list was built at once).
type liveness struct {
	in    []regSet
	regOf map[ssa.Value]int // (function.valueRegs: only functions whose liveness is asked for keep one)
	mu    sync.Mutex
	at    map[int64][]int // block<<32 | code index -> live registers (sorted)
}

// liveRegs returns the registers of f live at block b, code index pc, or
// nil, false if f has no liveness (a native, a function without blocks).
func (f *function) liveRegs(b, pc int) ([]int, bool) {
	f.liveOnce.Do(f.computeLiveness)
	l := f.live
	if l == nil || b >= len(l.in) || pc < 0 || pc >= len(f.ssa.Blocks[b].Instrs)-f.blocks[b].first {
		return nil, false
	}
	key := int64(b)<<32 | int64(pc)
	l.mu.Lock()
	regs, ok := l.at[key]
	l.mu.Unlock()
	if ok {
		return regs, true
	}
	lc := liveCtx{f: f, regOf: l.regOf, in: l.in}
	live := newRegSet(f.nregs)
	blk := f.ssa.Blocks[b]
	lc.out(blk, live)
	lc.transfer(blk, live, f.blocks[b].first+pc)
	regs = live.list()
	l.mu.Lock()
	l.at[key] = regs
	l.mu.Unlock()
	return regs, true
}

// regSet is a bit set of registers.
type regSet []uint64

func newRegSet(n int) regSet { return make(regSet, (n+63)/64) }

func (s regSet) add(r int) { s[r/64] |= 1 << (r % 64) }
func (s regSet) del(r int) { s[r/64] &^= 1 << (r % 64) }

// union adds o to s and reports whether s grew.
func (s regSet) union(o regSet) bool {
	grew := false
	for i, w := range o {
		if s[i]|w != s[i] {
			s[i] |= w
			grew = true
		}
	}
	return grew
}

func (s regSet) list() []int {
	var out []int
	for i, w := range s {
		for b := 0; b < 64; b++ {
			if w&(1<<b) != 0 {
				out = append(out, i*64+b)
			}
		}
	}
	return out
}

// computeLiveness fills f.live by the usual backward dataflow over f's SSA.
func (f *function) computeLiveness() {
	if f.native != nil || f.ssa == nil || len(f.blocks) == 0 {
		return
	}
	blocks := f.ssa.Blocks
	lc := liveCtx{f: f, regOf: f.valueRegs(), in: make([]regSet, len(blocks))}
	for i := range lc.in {
		lc.in[i] = newRegSet(f.nregs)
	}
	live := newRegSet(f.nregs)
	for changed := true; changed; {
		changed = false
		for i := len(blocks) - 1; i >= 0; i-- {
			lc.out(blocks[i], live)
			lc.transfer(blocks[i], live, -1)
			if lc.in[i].union(live) {
				changed = true
			}
		}
	}
	f.live = &liveness{in: lc.in, regOf: lc.regOf, at: map[int64][]int{}}
}

// liveCtx is the liveness computation of one function: its blocks' in-sets
// (complete once computeLiveness is done) and a buffer of operands.
type liveCtx struct {
	f     *function
	regOf map[ssa.Value]int // (function.valueRegs)
	in    []regSet
	ops   []*ssa.Value
}

func (lc *liveCtx) reg(v ssa.Value) int {
	switch v.(type) {
	case *ssa.Const, *ssa.Global, *ssa.Function, *ssa.Builtin:
		return -1 // a template register: the same in every frame
	}
	if r, ok := lc.regOf[v]; ok {
		return r
	}
	return -1
}

// transfer turns live, the set live at the end of b, into the set live
// before b's instruction stop (an index of b.Instrs, at least the first
// non-φ one), or, with stop < 0, before b (the φ-nodes define their
// registers at the top).
func (lc *liveCtx) transfer(b *ssa.BasicBlock, live regSet, stop int) {
	top := stop < 0
	first := lc.f.blocks[b.Index].first
	stop = max(stop, first)
	plan := lc.f.plan
	for i := len(b.Instrs) - 1; i >= stop; i-- {
		if plan.isDeferred(b.Index, i) {
			continue // (it runs at its anchor, below)
		}
		lc.step(b.Instrs[i], live)
		ds := plan.at(b.Index, i)
		for j := len(ds) - 1; j >= 0; j-- { // (run before the anchor's own operation)
			lc.step(b.Instrs[ds[j]], live)
		}
	}
	if !top {
		return
	}
	for i := first - 1; i >= 0; i-- {
		if v, ok := b.Instrs[i].(ssa.Value); ok {
			if r := lc.reg(v); r >= 0 {
				live.del(r)
			}
		}
	}
}

// step turns live, the set live after instr, into the set live before it.
func (lc *liveCtx) step(instr ssa.Instruction, live regSet) {
	if v, ok := instr.(ssa.Value); ok {
		if r := lc.reg(v); r >= 0 {
			live.del(r)
		}
	}
	lc.ops = instr.Operands(lc.ops[:0])
	for _, p := range lc.ops {
		if p != nil && *p != nil {
			if r := lc.reg(*p); r >= 0 {
				live.add(r)
			}
		}
	}
}

// out computes the set live at the end of b.
func (lc *liveCtx) out(b *ssa.BasicBlock, live regSet) {
	clear(live)
	if rec := lc.f.ssa.Recover; rec != nil {
		live.union(lc.in[rec.Index])
	}
	for _, s := range b.Succs {
		live.union(lc.in[s.Index])
		for j, p := range s.Preds {
			if p != b {
				continue
			}
			for _, instr := range s.Instrs {
				phi, ok := instr.(*ssa.Phi)
				if !ok {
					break
				}
				if j < len(phi.Edges) {
					if r := lc.reg(phi.Edges[j]); r >= 0 {
						live.add(r)
					}
				}
			}
		}
	}
}
