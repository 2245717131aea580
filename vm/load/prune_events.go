package load

import (
	"go/ast"
	"sort"
	"strings"
)

// This file turns a file outside the pruned packages (the module's, the
// packages the patterns name) into what the pruner takes from it: the
// names it uses through its imports and the names it selects. They are
// all the pruned standard library depends on in such a file, so the load
// cache keys on them (and on the package-level names such packages
// declare), not on the file's text: a test edited without naming
// anything new in the standard library finds its pruned library in the
// cache.

// pruneEvent is one use of a name in a file outside the pruned packages.
type pruneEvent struct {
	// kind 'q': path.name through an import (x: the import's local name;
	// dots: the file's dot imports, comma-separated); 's': x.name for
	// another x; 'm': path.name (a dot import's identifier, a linkname)
	kind       byte
	path, name string
	x, dots    string
}

// String is the event's key text.
func (e pruneEvent) String() string {
	return string(e.kind) + " " + e.path + " " + e.name + " " + e.x + " " + e.dots
}

// externalEvents lists what f names through its imports (imports as
// fileImports makes them; every identifier through a dot import) and the
// names it selects (x.Name), and what its //go:linkname directives pull.
func externalEvents(f *ast.File, imports map[string]string) []pruneEvent {
	var dots []string
	for k, path := range imports {
		if strings.HasPrefix(k, ".") {
			dots = append(dots, path)
		}
	}
	sort.Strings(dots)
	dotList := strings.Join(dots, ",")
	var out []pruneEvent
	var visit func(n ast.Node) bool
	visit = func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.SelectorExpr:
			if id, ok := n.X.(*ast.Ident); ok {
				if path, ok := imports[id.Name]; ok {
					out = append(out, pruneEvent{kind: 'q', path: path, name: n.Sel.Name, x: id.Name, dots: dotList})
					return false
				}
			}
			out = append(out, pruneEvent{kind: 's', name: n.Sel.Name})
			ast.Inspect(n.X, visit)
			return false
		case *ast.Ident:
			for _, path := range dots {
				out = append(out, pruneEvent{kind: 'm', path: path, name: n.Name})
			}
		}
		return true
	}
	ast.Inspect(f, visit)
	for _, cg := range f.Comments {
		for _, c := range cg.List {
			fields := strings.Fields(c.Text)
			if len(fields) == 3 && fields[0] == "//go:linkname" {
				if i := strings.LastIndexByte(fields[2], '.'); i > 0 {
					out = append(out, pruneEvent{kind: 'm', path: fields[2][:i], name: fields[2][i+1:]})
				}
			}
		}
	}
	return out
}

// apply reaches what the events use: path.name (a qualified identifier
// when the package declares name; otherwise the import's name is a local
// variable's, and name is a selection) and the methods of the names
// selected.
func (r *pruner) apply(evs []pruneEvent) {
	for _, e := range evs {
		switch e.kind {
		case 'q':
			r.markQualified(e.path, e.name)
			if r.top[e.path][e.name] {
				continue
			}
			r.selectName(nil, e.name)
			if e.dots != "" {
				for _, d := range strings.Split(e.dots, ",") {
					r.markQualified(d, e.x)
				}
			}
		case 's':
			r.selectName(nil, e.name)
		case 'm':
			r.markQualified(e.path, e.name)
		}
	}
}
