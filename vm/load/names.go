package load

import (
	"go/token"
	"path/filepath"
	"strings"

	"github.com/gmc-go/gmc/vm/loc"
)

// This file holds the names gmc prints for source files: the shortest path
// suffix (the base name, then one directory more, ...) that
// abstract.ParseTarget resolves back to the same file, so that every location gmc prints can be
// handed back to --target.

// nameFiles computes the printed names of p's files (loc.ShortName uses
// them for p.Fset from then on); Load calls it. A root package's file
// needs a suffix no other root file has (ParseTarget searches the roots
// first); any other file one that no root file and no other file has.
func nameFiles(p *Program) {
	roots := map[string]bool{}
	for _, pkg := range p.Pkgs {
		for _, f := range append(append([]string(nil), pkg.CompiledGoFiles...), pkg.GoFiles...) {
			roots[filepath.ToSlash(f)] = true
		}
	}
	byBase := map[string][]string{}
	p.Fset.Iterate(func(f *token.File) bool {
		name := filepath.ToSlash(f.Name())
		base := filepath.Base(name)
		for _, o := range byBase[base] {
			if o == name {
				return true
			}
		}
		byBase[base] = append(byBase[base], name)
		return true
	})
	short := map[string]string{}
	for base, names := range byBase {
		if len(names) < 2 {
			continue
		}
		for _, name := range names {
			if s := shortestSuffix(name, names, roots); s != base {
				short[name] = s
			}
		}
	}
	loc.SetShortNames(p.Fset, short)
}

// shortestSuffix returns the shortest path suffix of name that picks it
// among the files with its base name, by ParseTarget's rule.
func shortestSuffix(name string, same []string, roots map[string]bool) string {
	parts := strings.Split(name, "/")
	for k := 1; k < len(parts); k++ {
		suffix := strings.Join(parts[len(parts)-k:], "/")
		unique := true
		for _, o := range same {
			if o == name || !(o == suffix || strings.HasSuffix(o, "/"+suffix)) {
				continue
			}
			if roots[name] && !roots[o] {
				continue // the roots are searched first
			}
			unique = false
			break
		}
		if unique {
			return suffix
		}
	}
	return name
}
