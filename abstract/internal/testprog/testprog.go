// Package testprog loads small testdata programs for the tests of slice,
// abstract and abstract/warn.
//
// It uses vm/load; when vm/load cannot build a program (as happens while its
// standard-library stripping rejects some packages), it falls back to
// loading the same packages with full bodies, so the static analyses stay
// testable. The fallback keeps the load.Program contract: Fset, SSA, Roots
// and Pkgs index for index.
package testprog

import (
	"strings"
	"testing"

	"github.com/gmc-go/gmc/vm/load"
	"golang.org/x/tools/go/packages"
	"golang.org/x/tools/go/ssa"
	"golang.org/x/tools/go/ssa/ssautil"
)

// Load loads the package in dir or fails the test.
func Load(t testing.TB, dir string) *load.Program {
	t.Helper()
	p, err := load.Load(load.Config{Dir: dir})
	if err == nil {
		return p
	}
	if !strings.Contains(err.Error(), "could not be built") {
		t.Fatal(err)
	}
	cfg := &packages.Config{Mode: packages.LoadAllSyntax, Tests: true, Dir: dir}
	pkgs, err := packages.Load(cfg, ".")
	if err != nil {
		t.Fatal(err)
	}
	var roots []*packages.Package
	for _, pk := range pkgs {
		if !(strings.HasSuffix(pk.PkgPath, ".test") && pk.Name == "main") && (pk.ForTest != "" || len(pkgs) == 1 || !hasTestVariant(pkgs, pk.PkgPath)) {
			roots = append(roots, pk)
		}
	}
	prog, sps := ssautil.AllPackages(roots, ssa.InstantiateGenerics)
	prog.Build()
	out := &load.Program{Fset: prog.Fset, SSA: prog, Pkgs: roots}
	for i, sp := range sps {
		if sp == nil {
			t.Fatalf("%s: cannot build", roots[i].PkgPath)
		}
		out.Roots = append(out.Roots, sp)
	}
	return out
}

func hasTestVariant(pkgs []*packages.Package, path string) bool {
	for _, p := range pkgs {
		if p.ForTest == path && p.PkgPath == path {
			return true
		}
	}
	return false
}
