package guide

import (
	"strings"

	"github.com/gmc-go/gmc/slice"
	"github.com/gmc-go/gmc/vm"
	"github.com/gmc-go/gmc/vm/load"
	"github.com/gmc-go/gmc/vm/loc"
	"golang.org/x/tools/go/ssa"
)

// This file holds gmc confirm's warning-specific reduction (the main
// seed's §6: "a partial order reduction specific to the warning"): when
// one warning is checked, the loads and stores of memory on which neither
// the warning's targets nor the program's synchronization, branches and
// panics depend (slice.Relevance) are not scheduling points, so their
// interleavings are not explored. Such an access only moves data that
// reaches no branch, no synchronization, no index and no target, so its
// order against other goroutines cannot decide whether the warning shows;
// the race detector still sees it.

// Reduction returns the vm.Options.Invisible predicate of a warning whose
// targets are given, checked on entry e, and the number of memory-access
// instructions of the code under test it makes invisible. It depends only on its arguments, so a replay
// computes the same one (vm.Options.ReducedFor).
func Reduction(prog *load.Program, sp *slice.Program, targets []loc.Loc, e vm.Entry) (func(ssa.Instruction) bool, int) {
	roots := []*ssa.Function{e.Fn}
	for _, p := range prog.SSA.AllPackages() {
		if f := p.Func("init"); f != nil {
			roots = append(roots, f)
		}
	}
	scope := map[*ssa.Function]bool{}
	for f := range sp.ReachableFrom(roots) {
		if p := f.Package(); p != nil && len(f.Blocks) > 0 && prog.UnderTest(p.Pkg.Path()) {
			scope[f] = true
		}
	}
	rel := sp.Relevant(targets, scope, quietCall)
	hidden := 0
	for f := range scope {
		for _, b := range f.Blocks {
			for _, in := range b.Instrs {
				if !rel.Visible(in) {
					hidden++
				}

			}
		}
	}
	return func(in ssa.Instruction) bool { return !rel.Visible(in) }, hidden
}

// quietCall reports the functions without a body whose arguments decide
// neither a schedule nor a panic: formatting and test logging.
func quietCall(f *ssa.Function) bool {
	pkg := ""
	if f.Pkg != nil {
		pkg = f.Pkg.Pkg.Path()
	} else if r := f.Signature.Recv(); r != nil {
		pkg = r.Type().String()
	}
	switch {
	case pkg == "fmt":
		return strings.HasPrefix(f.Name(), "Sprint") || strings.HasPrefix(f.Name(), "Print")
	case strings.Contains(pkg, "testing"):
		switch f.Name() {
		case "Log", "Logf", "Helper", "Name":
			return true
		}
	}
	return false
}
