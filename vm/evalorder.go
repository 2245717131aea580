package vm

import (
	"go/ast"
	"go/token"
	"sort"

	"golang.org/x/tools/go/ssa"
)

// The order gc evaluates a statement's operands in. The spec orders only
// a statement's function calls, method calls and receive operations
// (lexical left to right) and leaves where the other operands are
// evaluated among them unspecified; go/ssa evaluates everything left to
// right, while gc evaluates the calls first and the rest after them
// (cmd/compile's order pass): in `return b, rs.Scan(&b)` (database/sql's
// Scan into a []byte, as DATA-DOG/go-sqlmock's tests write it) gc returns
// the b that Scan wrote, go/ssa the b before it, and `fmt.Println(x,
// f(&x))` prints the x that f set. Programs rely on gc's order, so the VM
// follows it: an instruction that reads and computes without side effects
// (a load, a field or an element address, arithmetic, a conversion) and
// whose first use comes after a call of the same statement runs after the
// last such call instead, just before the instruction that follows it
// (the anchor), as gc's code does. The instruction's own slot does
// nothing; its location stays its own (the anchor's while it runs), and
// liveness (liveness.go) sees it at the anchor. The deferred operations
// are not scheduling points of their own: they run with the anchor's
// operation (their accesses count in its footprint), as the calls' results
// and their own values are computed in one go in gc's code.

// deferPlan is a function's deferred instructions: by block, the indexes
// (in Instrs) of those deferred, and for each anchor index the deferred
// instructions run before it, in their order.
type deferPlan struct {
	deferred map[int64]bool    // block<<32 | index
	anchors  map[int64][]int32 // block<<32 | anchor index -> deferred indexes
}

func planKey(b, i int) int64 { return int64(b)<<32 | int64(i) }

// isDeferred reports whether instruction i of block b runs at an anchor.
func (p *deferPlan) isDeferred(b, i int) bool { return p != nil && p.deferred[planKey(b, i)] }

// at returns the instructions deferred to anchor i of block b.
func (p *deferPlan) at(b, i int) []int32 {
	if p == nil {
		return nil
	}
	return p.anchors[planKey(b, i)]
}

// planDeferrals computes f's deferPlan (nil: nothing is deferred).
func planDeferrals(f *ssa.Function) *deferPlan {
	syn := f.Syntax()
	if syn == nil || len(f.Blocks) == 0 {
		return nil
	}
	stmts := simpleStmts(syn)
	if len(stmts) == 0 {
		return nil
	}
	var p *deferPlan
	for _, b := range f.Blocks {
		n := len(b.Instrs)
		at := make(map[ssa.Instruction]int, n)
		stmt := make([]int, n)   // the simple statement of each instruction (-1: none)
		pos := make([]int, n)    // where each instruction runs (its index, or its anchor)
		calls := map[int][]int{} // by statement, the indexes of its calls and receives
		for i, in := range b.Instrs {
			at[in] = i
			stmt[i] = stmtOf(stmts, in.Pos())
			pos[i] = i
			if stmt[i] >= 0 && isOrderedCall(in) {
				calls[stmt[i]] = append(calls[stmt[i]], i)
			}
		}
		for i := n - 1; i >= 0; i-- {
			in := b.Instrs[i]
			if !deferrable(in) {
				continue
			}
			u, user := firstUse(b, in.(ssa.Value), at, pos)
			if u < 0 {
				continue
			}
			if stmt[i] < 0 {
				// an implicit conversion (no position of its own) is
				// its user's: return b, rs.Scan(&b) for b of a named
				// []byte type
				if stmt[i] = stmt[user]; stmt[i] < 0 {
					continue
				}
			}
			// the last call of the statement between the instruction and
			// its first use
			cs := calls[stmt[i]]
			k := sort.SearchInts(cs, u) - 1
			if k < 0 || cs[k] <= i {
				continue
			}
			c := cs[k]
			if p == nil {
				p = &deferPlan{deferred: map[int64]bool{}, anchors: map[int64][]int32{}}
			}
			pos[i] = c + 1
			p.deferred[planKey(b.Index, i)] = true
			key := planKey(b.Index, c+1)
			p.anchors[key] = append(p.anchors[key], int32(i))
		}
	}
	if p != nil {
		for k := range p.anchors {
			l := p.anchors[k]
			sort.Slice(l, func(x, y int) bool { return l[x] < l[y] }) // (found last first)
		}
	}
	return p
}

// firstUse is where the first use of v in its block runs (at: the index
// of each instruction of the block; pos: where each runs) and that user's
// index, or -1 when v has no use, or one outside the block or in a φ-node.
func firstUse(b *ssa.BasicBlock, v ssa.Value, at map[ssa.Instruction]int, pos []int) (int, int) {
	u, user := -1, -1
	for _, r := range *v.Referrers() {
		j, ok := at[r]
		if !ok || r.Block() != b {
			return -1, -1
		}
		if _, phi := r.(*ssa.Phi); phi {
			return -1, -1
		}
		if u < 0 || pos[j] < u {
			u, user = pos[j], j
		}
	}
	return u, user
}

// deferrable reports whether in computes a value without side effects
// that gc evaluates after a statement's calls.
func deferrable(in ssa.Instruction) bool {
	switch x := in.(type) {
	case *ssa.UnOp:
		return x.Op != token.ARROW
	case *ssa.BinOp, *ssa.FieldAddr, *ssa.Field, *ssa.IndexAddr, *ssa.Index,
		*ssa.Convert, *ssa.ChangeType, *ssa.MakeInterface:
		return true
	}
	return false
}

// isOrderedCall reports whether in is a call or a receive: what gc
// evaluates first, in order.
func isOrderedCall(in ssa.Instruction) bool {
	switch x := in.(type) {
	case *ssa.Call:
		_, builtin := x.Call.Value.(*ssa.Builtin)
		return !builtin
	case *ssa.UnOp:
		return x.Op == token.ARROW
	}
	return false
}

// span is a simple statement's extent.
type span struct{ pos, end token.Pos }

// simpleStmts are the return, assignment and expression statements of a
// function's body (not of the function literals in it: their own
// functions), in order of position; they do not nest.
func simpleStmts(syn ast.Node) []span {
	var out []span
	ast.Inspect(syn, func(n ast.Node) bool {
		switch n.(type) {
		case *ast.FuncLit:
			return n == syn
		case *ast.ReturnStmt, *ast.AssignStmt, *ast.ExprStmt:
			out = append(out, span{n.Pos(), n.End()})
			return false
		}
		return true
	})
	sort.Slice(out, func(i, j int) bool { return out[i].pos < out[j].pos })
	return out
}

// stmtOf is the index of the statement of stmts containing p (-1: none).
func stmtOf(stmts []span, p token.Pos) int {
	if !p.IsValid() {
		return -1
	}
	i := sort.Search(len(stmts), func(i int) bool { return stmts[i].end > p })
	if i < len(stmts) && stmts[i].pos <= p {
		return i
	}
	return -1
}

// deferredOp runs the operations deferred to an anchor, then the anchor's
// own: the deferred ones make no scheduling point (thread.deferring).
func deferredOp(ds []op, anchor op) op {
	return func(t *thread, fr *frame) ctl {
		t.deferring = true
		for _, d := range ds {
			if k := d(t, fr); k != ctlNext {
				t.deferring = false
				return k
			}
		}
		t.deferring = false
		return anchor(t, fr)
	}
}

// nop is the op of an instruction deferred to an anchor.
func nop(*thread, *frame) ctl { return ctlNext }
