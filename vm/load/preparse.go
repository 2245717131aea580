package load

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"

	"golang.org/x/tools/go/packages"
)

// This file parses the whole program before it is type-checked, so that
// the interpreted standard library can be pruned to what the program
// reaches (prune.go) first; check.go then takes each parsed file instead
// of parsing it again.

// preparsed holds the files parsed (and pruned) ahead of the load, or
// the load cache's entry they are parsed from when taken (cache.go).
type preparsed struct {
	mu     sync.Mutex
	files  map[string]*ast.File // by file name, each taken once
	pruned map[string]bool      // the package paths pruned
	// funcs, vars and types count the functions and method bodies, the
	// variable specs and the types removed
	funcs, vars, types int

	taken  map[string]*ast.File // the standard-library files taken
	cached *cachedLoad          // a cache hit: the files to parse
	src    *sources             // the files' contents (nil: read them)
	bad    bool                 // a cached file did not parse
}

// cachedPreparse is preparse's result from a cache entry: the files are
// parsed from their blanked text when taken.
func cachedPreparse(c *cachedLoad, src *sources, given map[string]*ast.File) *preparsed {
	p := &preparsed{cached: c, src: src, pruned: map[string]bool{}, files: given}
	for _, path := range c.pruned {
		p.pruned[path] = true
	}
	return p
}

// take returns the parsed file of filename, once, or nil.
func (p *preparsed) take(fset *token.FileSet, filename string) *ast.File {
	if p == nil {
		return nil
	}
	p.mu.Lock()
	if cf := p.cachedFile(filename); cf != nil {
		p.mu.Unlock()
		return p.parseCached(fset, filename, cf)
	}
	defer p.mu.Unlock()
	f := p.files[filename]
	delete(p.files, filename)
	if f != nil && strings.HasPrefix(filepath.ToSlash(filename), gorootSrc) {
		if p.taken == nil {
			p.taken = map[string]*ast.File{}
		}
		p.taken[filename] = f
	}
	return f
}

// cachedFile returns, once, the cache entry's file of filename (nil
// without an entry).
func (p *preparsed) cachedFile(filename string) *cachedFile {
	if p.cached == nil {
		return nil
	}
	cf := p.cached.files[filename]
	delete(p.cached.files, filename)
	return cf
}

// parseCached parses a file of a cache entry from its blanked text. A
// file that does not parse as the entry says marks the load (cacheFailed).
func (p *preparsed) parseCached(fset *token.FileSet, filename string, cf *cachedFile) *ast.File {
	orig, ok := p.src.data[filename]
	var f *ast.File
	var err error
	if ok {
		f, err = parser.ParseFile(fset, filename, cf.rebuild(orig), stdParseMode)
	}
	if !ok || err != nil || f == nil {
		p.mu.Lock()
		p.bad = true
		p.mu.Unlock()
		return nil
	}
	for _, i := range cf.renames {
		if i >= len(f.Imports) {
			p.mu.Lock()
			p.bad = true
			p.mu.Unlock()
			return nil
		}
		f.Imports[i].Name = ast.NewIdent("_")
	}
	return f
}

// read returns a file's contents (those read for the cache key, if any).
func (p *preparsed) read(name string) ([]byte, error) {
	if p == nil {
		return os.ReadFile(name)
	}
	return p.src.read(name)
}

// cacheFailed reports whether a file of the cache entry did not parse.
func (p *preparsed) cacheFailed() bool {
	if p == nil {
		return false
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.bad
}

// entry is the cache entry of a load that pruned: what each
// standard-library file taken covers (recorded holds the text each was
// parsed from). It is nil when a file cannot be recorded.
func (p *preparsed) entry(fset *token.FileSet, stripped map[string]bool, recorded *sync.Map) *cachedLoad {
	if p == nil || p.src == nil {
		return nil
	}
	c := &cachedLoad{files: map[string]*cachedFile{}}
	for path := range stripped {
		c.stripped = append(c.stripped, path)
	}
	for path := range p.pruned {
		c.pruned = append(c.pruned, path)
	}
	sort.Strings(c.stripped)
	sort.Strings(c.pruned)
	for name, f := range p.taken {
		orig, ok := p.src.data[name]
		parsed, ok2 := recorded.Load(name)
		if !ok || !ok2 {
			return nil
		}
		cf, ok := recordFile(fset, f, orig, parsed.([]byte))
		if !ok {
			return nil
		}
		c.files[name] = cf
	}
	return c
}

// failed reports whether a pruned package or one outside the standard
// library did not type-check after pruning (the program is loaded again
// without pruning: the errors, if they are the user's, are then reported
// as they are).
func (p *preparsed) failed(pkgs []*packages.Package) bool {
	if p == nil || len(p.pruned) == 0 {
		return false
	}
	bad := false
	packages.Visit(pkgs, nil, func(q *packages.Package) {
		if (p.pruned[q.PkgPath] || !isStdPkg(q)) && (q.IllTyped || len(q.Errors) > 0) {
			bad = true
		}
	})
	return bad
}

// preparse parses every file of the graph's packages with parse (which
// blanks the stripped and dead packages' bodies) and prunes the
// standard-library packages.
func preparse(fset *token.FileSet, g *importGraph, parse func(*token.FileSet, string, []byte) (*ast.File, error), src *sources, given map[string]*ast.File) *preparsed {
	owners := map[string]int{} // file name -> number of packages listing it
	var names []string
	for _, p := range g.all {
		for _, f := range p.GoFiles {
			if owners[f] == 0 {
				names = append(names, f)
			}
			owners[f]++
		}
	}
	files := make(map[string]*ast.File, len(names))
	bad := map[string]bool{}
	var toParse []string
	for _, n := range names {
		if f := given[n]; f != nil {
			files[n] = f // parsed for the cache's key
		} else {
			toParse = append(toParse, n)
		}
	}
	var mu sync.Mutex
	inParallel(toParse, func(name string) {
		data, err := src.read(name)
		var f *ast.File
		if err == nil {
			f, err = parse(fset, name, data)
		}
		mu.Lock()
		if err != nil || f == nil {
			bad[name] = true
		} else {
			files[name] = f
		}
		mu.Unlock()
	})

	pathNames := map[string]string{}
	for _, p := range g.all {
		pathNames[p.PkgPath] = p.Name
	}
	r := newPruner()
	pre := &preparsed{src: src}
	pruned := map[string]bool{}
	inPruner := map[string]bool{} // file names
	for _, p := range g.all {
		if !prunable(p, g, owners, files, bad) {
			continue
		}
		var fs []*ast.File
		for _, name := range p.GoFiles {
			fs = append(fs, files[name])
			inPruner[name] = true
		}
		imports := p.Imports
		r.addPackage(p.PkgPath, g.dead[p.PkgPath] || (isStripped(p.PkgPath) && !partlyLive(p.PkgPath, g)), fs, func(path string) string {
			if q := imports[path]; q != nil {
				return q.PkgPath
			}
			return path
		}, func(path string) string {
			if n := pathNames[path]; n != "" {
				return n
			}
			return importName(path)
		})
		pruned[p.PkgPath] = true
	}
	if len(pruned) > 0 {
		// the package-level names of every parsed package: pkg.Name is
		// a qualified identifier, not a method's selection, when the
		// imported package declares Name
		top := map[string]map[string]bool{}
		for _, p := range g.all {
			names := top[p.PkgPath]
			if names == nil {
				names = map[string]bool{}
				top[p.PkgPath] = names
			}
			for _, fn := range p.GoFiles {
				if f := files[fn]; f != nil {
					declNames(f, names)
				}
			}
		}
		r.top = top
		done := map[string]bool{}
		for _, p := range g.all {
			for _, fn := range p.GoFiles {
				if f := files[fn]; f != nil && !inPruner[fn] && !done[fn] {
					done[fn] = true
					r.apply(externalEvents(f, fileImports(f, p, pathNames)))
				}
			}
		}
		r.roots()
		r.run()
		pre.funcs, pre.vars, pre.types = r.prune()
		if pruneDebug != nil {
			pruneDebug(r)
		}
	}
	pre.files, pre.pruned = files, pruned
	return pre
}

// prunable reports whether p is a standard-library package that can be
// pruned: not named by the patterns, every file parsed and
// its own (no test variant shares it), no cgo.
func prunable(p *packages.Package, g *importGraph, owners map[string]int, files map[string]*ast.File, bad map[string]bool) bool {
	if !isStdPkg(p) || g.named[p.ID] || len(p.GoFiles) == 0 {
		return false
	}
	for _, name := range p.GoFiles {
		slash := filepath.ToSlash(name)
		if owners[name] != 1 || bad[name] || files[name] == nil || !strings.HasPrefix(slash, gorootSrc) ||
			strings.Contains(slash[len(gorootSrc):], "testdata/") {
			return false
		}
		for _, im := range files[name].Imports {
			if im.Path.Value == `"C"` {
				return false
			}
		}
	}
	return true
}

var pruneDebug func(*pruner)

// isStdPkg reports whether go list's package is a standard-library one.
func isStdPkg(p *packages.Package) bool { return p.Module == nil && IsStd(p.PkgPath) }

// fileImports maps the names under which f imports packages to their
// paths ("." for the dot imports, whose paths it lists as one string per
// key "." + path).
func fileImports(f *ast.File, p *packages.Package, pathNames map[string]string) map[string]string {
	m := map[string]string{}
	for _, im := range f.Imports {
		path := strings.Trim(im.Path.Value, `"`)
		if q := p.Imports[path]; q != nil {
			path = q.PkgPath
		}
		name := pathNames[path]
		if name == "" {
			name = importName(path)
		}
		if im.Name != nil {
			name = im.Name.Name
		}
		if name == "." {
			m["."+path] = path
			continue
		}
		m[name] = path
	}
	return m
}

// declNames adds the package-level names f declares (methods excluded).
func declNames(f *ast.File, names map[string]bool) {
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if d.Recv == nil {
				names[d.Name.Name] = true
			}
		case *ast.GenDecl:
			for _, s := range d.Specs {
				switch s := s.(type) {
				case *ast.ValueSpec:
					for _, n := range s.Names {
						names[n.Name] = true
					}
				case *ast.TypeSpec:
					names[s.Name.Name] = true
				}
			}
		}
	}
}
