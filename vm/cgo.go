package vm

import (
	"strings"

	"golang.org/x/tools/go/ssa"
)

// C code through cgo is outside the VM, like the operating system: a
// package with `import "C"` is loaded from the files cgo generates (its
// CompiledGoFiles), where C.f(x) is a call of _Cfunc_f, whose body calls
// runtime.cgocall (linknamed as _cgo_runtime_cgocall, no body), and C.v
// is *_Cvar_v, a pointer to __cgo_v, a Go variable linknamed to the C
// symbol. The VM gives such a variable no memory, so reading or writing
// C.v stops the entry as unsupported, naming it, instead of reading the
// zero of a Go variable the linker would have replaced; a call of C code
// stops at the call.

// cgoVar reports whether g is the Go side of a C variable (__cgo_v in a
// package cgo generated).
func cgoVar(g *ssa.Global) bool {
	return strings.HasPrefix(g.Name(), "__cgo_") && g.Pkg != nil && g.Pkg.Func("_cgo_runtime_cgocall") != nil
}

// cgoGenerated reports whether fn is one of the functions cgo generates
// (_Cfunc_f, _cgo_*, _Cgo_*): an error in one is reported at its caller.
func cgoGenerated(fn *ssa.Function) bool {
	n := fn.Name()
	return strings.HasPrefix(n, "_Cfunc_") || strings.HasPrefix(n, "_cgo") || strings.HasPrefix(n, "_Cgo") || strings.HasPrefix(n, "_Cmacro_")
}

// cgoCall is the reason a call of fn, cgo's runtime.cgocall, is
// unsupported.
func cgoCall(fn *ssa.Function) (string, bool) {
	if fn.Name() != "_cgo_runtime_cgocall" {
		return "", false
	}
	return "a call of C code (cgo: C functions are outside the VM)", true
}

// pastEnd is the reason a load or store runs past the end of object o
// (id): a C variable, a variable too large for the VM, or
// memory reinterpreted through unsafe.Pointer.
func (m *Machine) pastEnd(o *Object, id ObjID, load bool) string {
	if o.Cells == nil {
		for g, q := range m.globals {
			if q.Obj != id {
				continue
			}
			if cgoVar(g) {
				return "the C variable C." + strings.TrimPrefix(g.Name(), "__cgo_") + " (cgo: C memory is outside the VM)"
			}
			return "the variable " + g.String() + " (larger than the VM's " + itoa(maxObjectCells) + " cells for one object)"
		}
	}
	if load {
		return "load past the end of an object (memory reinterpreted through unsafe.Pointer)"
	}
	return "store past the end of an object (memory reinterpreted through unsafe.Pointer)"
}
