package vm

import (
	"go/token"
	"go/types"
	"reflect"

	"golang.org/x/tools/go/ssa"
)

// Go's == on two reflect.Values.
//
// Go compares a Value's three words: type, pointer and flag. For a value
// of a pointer-shaped kind that is not in memory (reflect.ValueOf of a
// func, pointer, channel, map or unsafe.Pointer, the flagIndir bit clear),
// the pointer word is the value itself, so reflect.ValueOf(f) ==
// reflect.ValueOf(f) for the same function f, the idiom of
// Masterminds/semver's TestParseConstraint. The VM keeps every Value in
// memory (natives_reflect_value.go), ValueOf copying its operand into a
// fresh object; == compares the values held there for those kinds instead
// of the copies' addresses (a value that is addressable, in the program's
// own memory, still compares by address, as in Go).

// isReflectValue reports whether t is reflect.Value.
func isReflectValue(t types.Type) bool {
	n, ok := types.Unalias(t).(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "reflect" && n.Obj().Name() == "Value"
}

// reflectValueEqOp is the op of == or != on two reflect.Values.
func (c *compiler) reflectValueEqOp(in *ssa.BinOp) op {
	x, y, dst := c.reg(in.X), c.reg(in.Y), c.reg(in)
	eq := in.Op == token.EQL
	return func(t *thread, fr *frame) ctl {
		fr.regs[dst] = t.reflectValueEqual(fr.regs[x], fr.regs[y]) == eq
		return ctlNext
	}
}

// reflectValueEqual is Go's a == b for two reflect.Values.
func (t *thread) reflectValueEqual(a, b Value) bool {
	va, vb := unpackValue(a), unpackValue(b)
	if va.rt != vb.rt || va.flag != vb.flag {
		return false
	}
	if va.rt == nil || va.ptr == vb.ptr {
		return true
	}
	if va.flag&rflagAddr != 0 {
		return false
	}
	switch va.kind() {
	case reflect.Func:
		fa, _ := t.s.readCells(va.ptr, va.rt).(*Closure)
		fb, _ := t.s.readCells(vb.ptr, vb.rt).(*Closure)
		return sameFuncValue(fa, fb)
	case reflect.Pointer, reflect.Chan, reflect.Map, reflect.UnsafePointer:
		return equal(t.s.readCells(va.ptr, va.rt), t.s.readCells(vb.ptr, vb.rt))
	}
	return false
}

// sameFuncValue reports whether two func values are one in Go's memory:
// the same closure, or the same function without captured variables (a
// top-level function's value is one static object).
func sameFuncValue(a, b *Closure) bool {
	if a == b {
		return true
	}
	if a == nil || b == nil {
		return false
	}
	return len(a.Env) == 0 && len(b.Env) == 0 && a.Fn == b.Fn && a.Native == b.Native && a.Bound == nil && b.Bound == nil && a.Conv == b.Conv
}
