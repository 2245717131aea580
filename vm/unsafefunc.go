package vm

import (
	"fmt"
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// Function values read through unsafe.Pointer as another function type.
//
// cornelk/hashmap picks its hasher with
//
//	m.hasher = *(*func(Key) uintptr)(unsafe.Pointer(&xxHashQword))
//
// where xxHashQword is a func(uint64) uintptr and Key is int: the program
// calls a function of one signature through a variable of another. Under
// Go's register ABI an integer argument is passed in a general register,
// so a callee whose parameter is an integer of the same size reads the
// caller's bits unchanged (int → uint64 is a reinterpretation). The VM
// represents each integer kind by its own Go type, so the load adapts the
// closure: a call converts each such argument to the callee's kind. A
// difference the register ABI does not make a plain reinterpretation
// (integers of different sizes, a float for an integer, a different number
// of parameters or results, results of different kinds) stops the run as
// unsupported at the load rather than guess what the callee would read.

// funcCastLoad reports whether the load *in.X reads a function value
// through a pointer converted from unsafe.Pointer (so the function's own
// signature may differ from the one the program calls it with).
func funcCastLoad(in *ssa.UnOp) bool {
	if _, ok := in.Type().Underlying().(*types.Signature); !ok {
		return false
	}
	cv, ok := in.X.(*ssa.Convert)
	if !ok {
		return false
	}
	return basicKindOf(cv.X.Type()) == types.UnsafePointer
}

// argConv converts the arguments of a call made through a function type
// other than the callee's: kinds[i] is the basic kind parameter i of the
// callee has (0: no conversion).
type argConv struct {
	kinds []types.BasicKind
}

func (a *argConv) apply(args []Value) []Value {
	out := make([]Value, len(args))
	for i, v := range args {
		if i < len(a.kinds) && a.kinds[i] != 0 {
			v = intOfKind(a.kinds[i], toUint64(v))
		}
		out[i] = v
	}
	return out
}

// callArgs returns the arguments the callee of c receives.
func (c *Closure) callArgs(args []Value) []Value {
	if c.Conv == nil {
		return args
	}
	return c.Conv.apply(args)
}

// adaptFuncCast returns cl as a value of function type want: cl itself
// when the signatures agree in representation, an adapted copy when they
// differ only by integer kinds of the same size, or why not.
func adaptFuncCast(cl *Closure, want types.Type) (*Closure, string) {
	if cl == nil || cl.Fn == nil {
		return cl, "" // nil, or a native: natives take their arguments by value
	}
	ws := want.Underlying().(*types.Signature)
	hs := cl.Fn.Signature
	if ws.Params().Len() != hs.Params().Len() || ws.Results().Len() != hs.Results().Len() || ws.Variadic() != hs.Variadic() {
		return nil, fmt.Sprintf("a call of %s through the function type %s", hs, want)
	}
	for i := 0; i < ws.Results().Len(); i++ {
		if k, ok := reinterpretKind(ws.Results().At(i).Type(), hs.Results().At(i).Type()); !ok || k != 0 {
			return nil, fmt.Sprintf("a call of %s through the function type %s (results of different kinds)", hs, want)
		}
	}
	var kinds []types.BasicKind
	for i := 0; i < ws.Params().Len(); i++ {
		k, ok := reinterpretKind(ws.Params().At(i).Type(), hs.Params().At(i).Type())
		if !ok {
			return nil, fmt.Sprintf("a call of %s through the function type %s (parameter %d)", hs, want, i+1)
		}
		if k != 0 {
			if kinds == nil {
				kinds = make([]types.BasicKind, ws.Params().Len())
			}
			kinds[i] = k
		}
	}
	if kinds == nil {
		return cl, ""
	}
	return &Closure{Fn: cl.Fn, Env: cl.Env, Conv: &argConv{kinds: kinds}}, ""
}

// reinterpretKind compares a caller's type with the callee's: ok with kind
// 0 when the VM represents them alike, ok with the callee's kind when both
// are integers of the same size (a reinterpretation of the register).
func reinterpretKind(caller, callee types.Type) (types.BasicKind, bool) {
	if types.Identical(caller, callee) {
		return 0, true
	}
	cb, ok1 := caller.Underlying().(*types.Basic)
	hb, ok2 := callee.Underlying().(*types.Basic)
	if !ok1 || !ok2 {
		return 0, types.Identical(caller.Underlying(), callee.Underlying())
	}
	if cb.Kind() == hb.Kind() {
		return 0, true
	}
	isInt := func(k types.BasicKind) bool { return isSigned(k) || isUnsigned(k) }
	if isInt(cb.Kind()) && isInt(hb.Kind()) && gcSizes.Sizeof(cb) == gcSizes.Sizeof(hb) {
		return hb.Kind(), true
	}
	return 0, false
}
