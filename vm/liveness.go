package vm

import (
	"slices"
	"sort"

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

// liveness holds, per block and instruction (the code index, φ-nodes
// aside), the registers live before it.
type liveness struct {
	at [][][]int // block -> code index -> live registers (sorted)
}

// liveRegs returns the registers of f live at block b, code index pc, or
// nil, false if f has no liveness (a native, a function without blocks).
func (f *function) liveRegs(b, pc int) ([]int, bool) {
	f.liveOnce.Do(f.computeLiveness)
	l := f.live
	if l == nil || b >= len(l.at) || pc < 0 || pc >= len(l.at[b]) {
		return nil, false
	}
	return l.at[b][pc], true
}

// regSet is a bit set of registers.
type regSet []uint64

func newRegSet(n int) regSet { return make(regSet, (n+63)/64) }

func (s regSet) add(r int)      { s[r/64] |= 1 << (r % 64) }
func (s regSet) del(r int)      { s[r/64] &^= 1 << (r % 64) }
func (s regSet) has(r int) bool { return s[r/64]&(1<<(r%64)) != 0 }

// sortedRegs is a set of registers as a sorted list.
type sortedRegs []int

func (l *sortedRegs) add(r int) {
	i := sort.SearchInts(*l, r)
	*l = slices.Insert(*l, i, r)
}

func (l *sortedRegs) del(r int) {
	if i := sort.SearchInts(*l, r); i < len(*l) && (*l)[i] == r {
		*l = slices.Delete(*l, i, i+1)
	}
}

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
	if f.native != nil || f.ssa == nil || len(f.blocks) == 0 || f.regOf == nil {
		return
	}
	n := f.nregs
	reg := func(v ssa.Value) int {
		switch v.(type) {
		case *ssa.Const, *ssa.Global, *ssa.Function, *ssa.Builtin:
			return -1 // a template register: the same in every frame
		}
		if r, ok := f.regOf[v]; ok {
			return r
		}
		return -1
	}
	blocks := f.ssa.Blocks
	in := make([]regSet, len(blocks))
	for i := range in {
		in[i] = newRegSet(n)
	}
	var ops []*ssa.Value
	var cur sortedRegs
	// transfer computes the live set before each non-φ instruction of b
	// from the set live at its end; the result is the set before the first.
	// With record, it also lists the set before each instruction, kept
	// sorted as it changes (a list costs its length, not the function's
	// register count).
	transfer := func(b *ssa.BasicBlock, live regSet, record [][]int) {
		first := f.blocks[b.Index].first
		if record != nil {
			cur = append(cur[:0], live.list()...)
		}
		for i := len(b.Instrs) - 1; i >= first; i-- {
			instr := b.Instrs[i]
			if v, ok := instr.(ssa.Value); ok {
				if r := reg(v); r >= 0 && live.has(r) {
					live.del(r)
					if record != nil {
						cur.del(r)
					}
				}
			}
			ops = instr.Operands(ops[:0])
			for _, p := range ops {
				if p != nil && *p != nil {
					if r := reg(*p); r >= 0 && !live.has(r) {
						live.add(r)
						if record != nil {
							cur.add(r)
						}
					}
				}
			}
			if record != nil && len(cur) > 0 {
				record[i-first] = append([]int(nil), cur...)
			}
		}
		for i := first - 1; i >= 0; i-- { // φ-nodes define their registers at the top
			if v, ok := b.Instrs[i].(ssa.Value); ok {
				if r := reg(v); r >= 0 {
					live.del(r)
				}
			}
		}
	}
	// out computes the set live at the end of b.
	out := func(b *ssa.BasicBlock, live regSet) {
		for i := range live {
			live[i] = 0
		}
		if f.ssa.Recover != nil {
			live.union(in[f.ssa.Recover.Index])
		}
		for _, s := range b.Succs {
			live.union(in[s.Index])
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
						if r := reg(phi.Edges[j]); r >= 0 {
							live.add(r)
						}
					}
				}
			}
		}
	}
	live := newRegSet(n)
	for changed := true; changed; {
		changed = false
		for i := len(blocks) - 1; i >= 0; i-- {
			out(blocks[i], live)
			transfer(blocks[i], live, nil)
			if in[i].union(live) {
				changed = true
			}
		}
	}
	l := &liveness{at: make([][][]int, len(blocks))}
	for i, b := range blocks {
		l.at[i] = make([][]int, len(b.Instrs)-f.blocks[i].first)
		out(b, live)
		transfer(b, live, l.at[i])
	}
	f.live = l
}
