package load

import (
	"sort"
	"strings"

	"golang.org/x/tools/go/packages"
)

// This file finds the standard-library packages no interpreted code can
// reach: those imported only through stripped packages (net/http's whole
// crypto stack, testing's internals). They are stripped too, so that
// their bodies are neither type-checked nor built into SSA and their
// initializers do not run: nothing can call them (a stripped package's
// functions have no bodies and its initializer is a no-op).

// nativeCallees are the interpreted packages that natives call into
// whether or not the program imports them.
var nativeCallees = map[string]string{
	"context": "t.Context() is context.WithCancel(context.Background()) (vm/testing.go)",
	"fmt":     "t.Log, t.Errorf and the other loggers format with fmt.Sprintln and fmt.Sprintf (vm/entry.go)",
}

// importGraph is the program's import graph as go list reports it, before
// anything is parsed.
type importGraph struct {
	all   []*packages.Package // every package, the generated test mains included
	named map[string]bool     // the IDs of the packages the patterns name
	dead  map[string]bool     // GOROOT packages reachable only through stripped ones
	// unkept lists the partly kept packages stripped whole in this
	// program: the gate of their kept files is closed (partkeep_http.go)
	unkept map[string]bool
}

// stdGraph lists the program of patterns (the only go list run of a
// load: check.go parses and type-checks what it lists) and finds its
// GOROOT packages that are reachable only through stripped packages
// (dead). It returns the packages the patterns name (go/packages'
// roots).
func stdGraph(dir string, patterns, buildFlags []string) (*importGraph, []*packages.Package, error) {
	cfg := &packages.Config{
		Mode: packages.NeedName | packages.NeedFiles | packages.NeedCompiledGoFiles | packages.NeedImports |
			packages.NeedDeps | packages.NeedModule | packages.NeedEmbedFiles,
		Tests:      true,
		Dir:        dir,
		BuildFlags: buildFlags,
	}
	pkgs, err := packages.Load(cfg, patterns...)
	if err != nil {
		return nil, nil, err
	}
	// a standard-library package has no module (a module's path may
	// have no dot: IsStd alone cannot tell)
	std := func(p *packages.Package) bool { return p.Module == nil && IsStd(p.PkgPath) }
	all := map[string]*packages.Package{}
	packages.Visit(pkgs, nil, func(p *packages.Package) { all[p.ID] = p })
	live := map[string]bool{}
	var work []*packages.Package
	seen := map[string]bool{} // by ID: a package and its test variant share a path
	mark := func(p *packages.Package) {
		if !seen[p.ID] {
			seen[p.ID] = true
			live[p.PkgPath] = true
			work = append(work, p)
		}
	}
	for _, p := range all {
		switch {
		case std(p):
			if _, ok := nativeCallees[p.PkgPath]; ok {
				mark(p)
			}
		case strings.HasSuffix(p.PkgPath, ".test") && p.Name == "main":
			// the generated test main: gmc runs the tests itself
		default:
			mark(p)
		}
	}
	g := &importGraph{named: map[string]bool{}, dead: map[string]bool{}, unkept: closedGates(all, std)}
	for _, p := range pkgs {
		if !strings.HasSuffix(p.PkgPath, ".test") {
			mark(p) // the packages named by the patterns (GOROOT's GoKer kernels among them)
		}
		g.named[p.ID] = true
	}
	for len(work) > 0 {
		p := work[len(work)-1]
		work = work[:len(work)-1]
		if std(p) && isStripped(p.PkgPath) {
			if imports, ok := keptImports(p.PkgPath); ok && !g.unkept[p.PkgPath] {
				for _, path := range imports { // its kept files' (partkeep.go)
					if q := p.Imports[path]; q != nil {
						mark(q)
					}
				}
			}
			continue
		}
		for _, q := range p.Imports {
			mark(q)
		}
	}
	for _, p := range all {
		g.all = append(g.all, p)
		if std(p) && !live[p.PkgPath] {
			g.dead[p.PkgPath] = true
		}
	}
	sort.Slice(g.all, func(i, j int) bool { return g.all[i].ID < g.all[j].ID })
	return g, pkgs, nil
}
