package slice

import (
	"github.com/gmc-go/gmc/vm/load"
	"github.com/gmc-go/gmc/vm/loc"
	"golang.org/x/tools/go/ssa"
)

// This file holds the standard library's opacity. The slice treats a
// standard-library function as the VM's natives were treated before the
// library ran from its source: a call to it is one location, its effects
// happen at the call site, and its body contributes no call chains, no
// goroutine starts and no stores. Without that, a call of fmt.Fprintln on
// an error path puts fmt's printer into every backward slice that reads an
// int (a dereference of *int may alias any int), and the abstract system of
// a twenty-line benchmark grows to hundreds of locations in fmt and strconv.
// The packages of the targets stay open (Open), so a target inside the
// standard library is sliced as any other code.

// Library reports whether fn's body is outside the slice: fn belongs to a
// standard-library package (not a testdata program under GOROOT) that no
// target opened.
func (p *Program) Library(fn *ssa.Function) bool {
	pkg := funcPackage(fn)
	if pkg == nil || p.open[pkg] {
		return false
	}
	return p.isLibrary(pkg)
}

// funcPackage is fn's package (for an instance of a generic function, the
// generic function's; nil for a wrapper without one).
func funcPackage(fn *ssa.Function) *ssa.Package {
	if fn == nil {
		return nil
	}
	if fn.Pkg == nil && fn.Origin() != nil {
		return fn.Origin().Pkg
	}
	return fn.Pkg
}

// isLibrary reports whether pkg is a standard-library package
// (load.StdPackage: by where its source is, not only by its path).
func (p *Program) isLibrary(pkg *ssa.Package) bool {
	lib, ok := p.libPkgs[pkg]
	if !ok {
		lib = load.StdPackage(pkg)
		p.libPkgs[pkg] = lib
	}
	return lib
}

// Open makes the packages of fns transparent to the slice (a target in the
// standard library is sliced as code under test). It drops the memory
// index built so far when that changes anything.
func (p *Program) Open(fns ...*ssa.Function) {
	changed := false
	for _, fn := range fns {
		pkg := funcPackage(fn)
		if pkg == nil || p.open[pkg] || !p.isLibrary(pkg) {
			continue
		}
		p.open[pkg] = true
		changed = true
	}
	if changed {
		p.mem = nil
		p.defines = map[Class][]loc.Loc{}
		p.cross = map[crossKey][]loc.Loc{}
		p.defByFn = map[Class]map[*ssa.Function][]loc.Loc{}
	}
}

// codeCallers returns the call sites of fn outside the standard library's
// bodies: a callback the library calls is called, for the slice, at the
// call site that handed it over (NewWithCallGraph's callback edges).
func (p *Program) codeCallers(fn *ssa.Function) []Site {
	return without(p.callers[fn], func(s Site) bool { return p.Library(s.Loc.Fn) })
}

// codeCallees returns the callees of a call whose bodies the slice looks
// into: a standard-library callee's result comes from the call itself.
func (p *Program) codeCallees(c ssa.CallInstruction) []*ssa.Function {
	return without(p.callees[c], p.Library)
}

// without returns xs less the elements drop reports; xs itself (not a
// copy) when nothing is dropped.
func without[T any](xs []T, drop func(T) bool) []T {
	for i, x := range xs {
		if drop(x) {
			out := append([]T(nil), xs[:i]...)
			for _, y := range xs[i+1:] {
				if !drop(y) {
					out = append(out, y)
				}
			}
			return out
		}
	}
	return xs
}
