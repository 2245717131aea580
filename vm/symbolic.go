package vm

import (
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// dataState holds the symbolic side of a state: the path condition and a
// pending data choice. It is nil for programs without symbolic inputs, so
// they never pay for it. (Symbolic execution is added by the refinement
// work; until then inputs are concrete and dataState stays nil.)
type dataState struct {
	pending *pendingBranch
}

type pendingBranch struct {
	g int
}

func (d *dataState) choose(side int) *dataState { return d }

// isSym reports whether v is a symbolic expression.
func isSym(v Value) bool { return false }

// fuzzInput returns the value of a fuzz parameter: the seed value v.
func (t *thread) fuzzInput(name string, typ types.Type, v Value) Value { return v }

func (t *thread) symBinOp(fr *frame, in *ssa.BinOp, a, b Value, dst int) ctl {
	return t.unsupported(fr, "symbolic operation "+in.Op.String())
}

func (t *thread) symUnOp(fr *frame, in *ssa.UnOp, a Value, dst int) ctl {
	return t.unsupported(fr, "symbolic operation "+in.Op.String())
}

func (t *thread) symConvert(fr *frame, a Value, from, to types.BasicKind, dst int) ctl {
	return t.unsupported(fr, "symbolic conversion")
}

func (t *thread) symbolicBranch(fr *frame, cond Value, tb *block, te int, fb *block, fe int) ctl {
	return t.unsupported(fr, "branch on a non-boolean value")
}
