package vm

import (
	"fmt"
	"go/token"
	"go/types"
	"strconv"

	"github.com/gmc-go/gmc/vm/smt"
)

// symExpr is a symbolic value: an expression over the symbolic inputs of a
// fuzz target. It stands in a register or a heap cell where a value of its
// Go kind would be, and is immutable, so states share it freely.
//
// Expressions are built lazily: an operation on a symbolic operand only
// allocates a node. Z3 sees an expression when a branch or a concretization
// needs it (see session), so a run that never branches on an input never
// talks to the solver.
type symExpr struct {
	op   symOp
	tok  token.Token     // symBin, symUn: the Go operator
	k    types.BasicKind // the Go kind of the value (types.Bool for conditions)
	x, y *symExpr        // operands (symUn, symConv: x only)
	bits uint64          // symConst: the value's bits (sign-extended)
	v    int             // symVar: the input's index
	name string          // symVar: the solver constant's name
	h    uint64          // structural hash: equal expressions hash equally
}

// symOp is the shape of a symExpr node.
type symOp uint8

const (
	symVar   symOp = iota + 1 // an input: x
	symConst                  // a concrete operand of an operation: 18 in x > 18
	symBin                    // a binary Go operator: x + y, x > 18
	symUn                     // a unary Go operator: -x, ^x, !b
	symConv                   // an integer conversion: int8(x)
)

func mix(h, x uint64) uint64 {
	h ^= x
	h *= fnvPrime
	h ^= h >> 29
	return h
}

func newSymVar(k types.BasicKind, v int, name string) *symExpr {
	h := mix(mix(fnvOffset, uint64(symVar)), uint64(v))
	for i := 0; i < len(name); i++ {
		h = mix(h, uint64(name[i]))
	}
	return &symExpr{op: symVar, k: k, v: v, name: name, h: mix(h, uint64(k))}
}

func newSymConst(k types.BasicKind, bits uint64) *symExpr {
	return &symExpr{op: symConst, k: k, bits: bits, h: mix(mix(mix(fnvOffset, uint64(symConst)), uint64(k)), bits)}
}

func newSymBin(tok token.Token, k types.BasicKind, x, y *symExpr) *symExpr {
	h := mix(mix(mix(mix(fnvOffset, uint64(symBin)), uint64(tok)), uint64(k)), x.h)
	return &symExpr{op: symBin, tok: tok, k: k, x: x, y: y, h: mix(h, y.h)}
}

func newSymUn(tok token.Token, k types.BasicKind, x *symExpr) *symExpr {
	h := mix(mix(mix(mix(fnvOffset, uint64(symUn)), uint64(tok)), uint64(k)), x.h)
	return &symExpr{op: symUn, tok: tok, k: k, x: x, h: h}
}

func newSymConv(k types.BasicKind, x *symExpr) *symExpr {
	h := mix(mix(mix(fnvOffset, uint64(symConv)), uint64(k)), x.h)
	return &symExpr{op: symConv, k: k, x: x, h: h}
}

// not returns the negation of a condition.
func (e *symExpr) not() *symExpr {
	if e.op == symUn && e.tok == token.NOT {
		return e.x
	}
	return newSymUn(token.NOT, types.Bool, e)
}

// hashInto makes symExpr a nativeRef: hashed by structure, not identity.
func (e *symExpr) hashInto(h *hasher) { h.u64(e.h) }

// String renders the expression in Go syntax (for debugging and for
// values that reach output without being concretized).
func (e *symExpr) String() string {
	switch e.op {
	case symVar:
		return e.name
	case symConst:
		if e.k == types.Bool {
			return strconv.FormatBool(e.bits != 0)
		}
		return fmt.Sprint(intOfKind(e.k, e.bits))
	case symBin:
		return "(" + e.x.String() + " " + e.tok.String() + " " + e.y.String() + ")"
	case symUn:
		return e.tok.String() + e.x.String()
	case symConv:
		return types.Typ[e.k].Name() + "(" + e.x.String() + ")"
	}
	return "?"
}

// smtType is the solver type of a Go basic kind (int and uint are 64 bits
// wide, as on amd64); ok is false for kinds that cannot be symbolic.
func smtType(k types.BasicKind) (smt.Type, bool) {
	switch k {
	case types.Bool, types.UntypedBool:
		return smt.Bool, true
	case types.Int, types.Int64, types.UntypedInt:
		return smt.Int64, true
	case types.Int8:
		return smt.Int8, true
	case types.Int16:
		return smt.Int16, true
	case types.Int32, types.UntypedRune:
		return smt.Int32, true
	case types.Uint, types.Uint64, types.Uintptr:
		return smt.Uint64, true
	case types.Uint8:
		return smt.Uint8, true
	case types.Uint16:
		return smt.Uint16, true
	case types.Uint32:
		return smt.Uint32, true
	}
	return 0, false
}

// symKind reports whether values of kind k can be symbolic.
func symKind(k types.BasicKind) bool {
	_, ok := smtType(k)
	return ok
}

// asSym returns v as an expression of kind k: v itself if it is symbolic,
// else a constant.
func asSym(v Value, k types.BasicKind) *symExpr {
	if e, ok := v.(*symExpr); ok {
		return e
	}
	if b, ok := v.(bool); ok {
		if b {
			return newSymConst(types.Bool, 1)
		}
		return newSymConst(types.Bool, 0)
	}
	return newSymConst(k, toUint64(v))
}

// valueOf converts the bits of a model value to the Go value of kind k.
func valueOf(k types.BasicKind, bits uint64) Value {
	if k == types.Bool || k == types.UntypedBool {
		return bits != 0
	}
	return intOfKind(k, bits)
}

// isSymDeep reports whether v is symbolic or is an interface or aggregate
// value holding a symbolic value.
func isSymDeep(v Value) bool {
	switch x := v.(type) {
	case *symExpr:
		return true
	case Iface:
		return isSymDeep(x.V)
	case []Value:
		for _, c := range x {
			if isSymDeep(c) {
				return true
			}
		}
	case Tuple:
		for _, c := range x {
			if isSymDeep(c) {
				return true
			}
		}
	}
	return false
}
