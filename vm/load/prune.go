package load

import (
	"go/ast"
	"go/token"
	"strings"
)

// This file prunes the interpreted standard-library packages to what the
// program can reach, before they are type-checked: the bodies of the
// functions and methods nothing reachable names are removed (they become
// external functions in SSA, like a stripped package's), and the
// package-level variables nothing reachable names whose initializers have
// no effect (tables of composite literals: unicode's, strconv's) are
// dropped. Type checking and SSA building are then spent on what can run.
//
// Reachability is syntactic and conservative, over the parsed files of
// the whole program:
//   - the roots are what the code outside the pruned packages names (the
//     module's packages, the packages the patterns name, the test main),
//     the interpreted packages' initializers and the initializers of their
//     variables that call a function or receive, every constant, the
//     remaining bodies of stripped packages, the variables that size an
//     array type, and what the VM's natives use by name (vmRoots,
//     keepTypes, vmMethods);
//   - a reached declaration reaches the package-level names it mentions
//     (an identifier in its own package, pkg.Name through an import);
//   - a method is reached when its receiver's type is reached and its name
//     is selected (x.Name) by reached code; an exported name selected
//     anywhere counts in every package. When reached code selects Method or
//     MethodByName (reflect calls methods by index or name), every method
//     of a reached type is kept. A generic type's methods are reached with
//     it (SSA instantiates them from their bodies, which stay);
//   - a kept type keeps every method (unreached ones bodiless), and what
//     their signatures name.
//
// Unreached functions and types (with their methods) are removed whole;
// a stripped or dead package (its bodies are gone already, its
// initializer is a no-op in the VM) loses its unreached variables.
//
// A pruned function that runs all the same is reported by the VM as a call
// of a function with no body (unsupported, never a wrong verdict); Load
// checks that every pruned package still type-checks and loads the
// program again without pruning when one does not.

// prunePkg is an interpreted standard-library package being pruned.
type prunePkg struct {
	path  string
	files []*pruneFile
	objs  map[string][]*pruneUnit // package-level funcs, vars and types by name
	// methods of the package's types, by method name and by receiver type
	byName map[string][]*pruneUnit
	byRecv map[string][]*pruneUnit
	names  map[string]bool // every package-level name (for the imports' use)
	specs  map[*ast.ValueSpec]*pruneUnit
	funcs  map[*ast.FuncDecl]*pruneUnit // the functions (not methods)
	sel    map[string]bool              // unexported method names selected in the package
	// varsOnly: a stripped package, or one only stripped packages import:
	// its functions' bodies are gone already, only variables are pruned
	varsOnly bool
}

// pruneFile is one file of a pruned package.
type pruneFile struct {
	f        *ast.File
	imports  map[string]string          // local name -> import path
	specName map[*ast.ImportSpec]string // the local name of each import
}

// pruneUnit is a declaration that is reached or not: a function, a
// method, a variable spec (all its names), a type.
type pruneUnit struct {
	pkg     *prunePkg
	file    *pruneFile
	node    ast.Node // *ast.FuncDecl, *ast.ValueSpec or *ast.TypeSpec
	recv    string   // a method's receiver type name
	isType  bool
	reached bool
	from    *pruneUnit // the unit whose scan reached it (nil: a root), for debugging
}

// pruner computes the reached units of a set of packages.
type pruner struct {
	pkgs    map[string]*prunePkg // by import path
	selAll  map[string]bool      // exported method names selected anywhere
	work    []*pruneUnit
	methods bool // reflect's Method or MethodByName is selected: keep every method of reached types
	// top are the package-level names of every package of the program
	top map[string]map[string]bool
	cur *pruneUnit // the unit being scanned
}

func newPruner() *pruner {
	return &pruner{pkgs: map[string]*prunePkg{}, selAll: map[string]bool{}}
}

// addPackage indexes the files of an interpreted package; imports maps
// each file's import paths to the program's package paths (vendoring).
func (r *pruner) addPackage(path string, varsOnly bool, files []*ast.File, resolve func(string) string, pkgName func(string) string) {
	p := &prunePkg{path: path, varsOnly: varsOnly, objs: map[string][]*pruneUnit{}, byName: map[string][]*pruneUnit{},
		byRecv: map[string][]*pruneUnit{}, names: map[string]bool{}, sel: map[string]bool{},
		specs: map[*ast.ValueSpec]*pruneUnit{}, funcs: map[*ast.FuncDecl]*pruneUnit{}}
	for _, f := range files {
		pf := &pruneFile{f: f, imports: map[string]string{}, specName: map[*ast.ImportSpec]string{}}
		for _, im := range f.Imports {
			ipath := resolve(strings.Trim(im.Path.Value, `"`))
			name := pkgName(ipath)
			if im.Name != nil {
				name = im.Name.Name
			}
			pf.imports[name] = ipath
			pf.specName[im] = name
		}
		p.files = append(p.files, pf)
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				u := &pruneUnit{pkg: p, file: pf, node: d}
				if d.Recv != nil && len(d.Recv.List) > 0 {
					u.recv = recvName(d.Recv.List[0].Type)
					p.byName[d.Name.Name] = append(p.byName[d.Name.Name], u)
					p.byRecv[u.recv] = append(p.byRecv[u.recv], u)
				} else {
					p.objs[d.Name.Name] = append(p.objs[d.Name.Name], u)
					p.names[d.Name.Name] = true
					p.funcs[d] = u
				}
			case *ast.GenDecl:
				for _, s := range d.Specs {
					switch s := s.(type) {
					case *ast.ValueSpec:
						u := &pruneUnit{pkg: p, file: pf, node: s}
						if d.Tok == token.VAR {
							p.specs[s] = u
						}
						for _, n := range s.Names {
							p.names[n.Name] = true
							if d.Tok == token.VAR {
								p.objs[n.Name] = append(p.objs[n.Name], u)
							}
						}
					case *ast.TypeSpec:
						p.names[s.Name.Name] = true
						p.objs[s.Name.Name] = append(p.objs[s.Name.Name], &pruneUnit{pkg: p, file: pf, node: s, isType: true})
					}
				}
			}
		}
	}
	r.pkgs[path] = p
}

// recvName is the name of a receiver's base type ("*T[K]" -> "T").
func recvName(t ast.Expr) string {
	for {
		switch x := t.(type) {
		case *ast.StarExpr:
			t = x.X
		case *ast.ParenExpr:
			t = x.X
		case *ast.IndexExpr:
			t = x.X
		case *ast.IndexListExpr:
			t = x.X
		case *ast.Ident:
			return x.Name
		default:
			return ""
		}
	}
}

// markQualified records a use of path.name (a linkname, a VM root).
func (r *pruner) markQualified(path, name string) {
	if p := r.pkgs[path]; p != nil {
		r.mark(p, name)
	}
}

// mark reaches the package-level declarations of p named name.
func (r *pruner) mark(p *prunePkg, name string) {
	for _, u := range p.objs[name] {
		r.reach(u)
	}
}

func (r *pruner) reach(u *pruneUnit) {
	if u.reached {
		return
	}
	u.reached = true
	u.from = r.cur
	r.work = append(r.work, u)
	if u.isType {
		for _, m := range u.pkg.byRecv[u.node.(*ast.TypeSpec).Name.Name] {
			fd := m.node.(*ast.FuncDecl)
			if r.methods || r.selected(u.pkg, fd.Name.Name) || genericRecv(fd) {
				// (a generic type's methods keep their bodies: SSA
				// instantiates them from their syntax)
				r.reach(m)
			} else {
				// a kept type keeps its methods, bodiless: what their
				// signatures name stays declared
				r.scanNow(&pruneUnit{pkg: m.pkg, file: m.file, node: fd.Recv})
				r.scanNow(&pruneUnit{pkg: m.pkg, file: m.file, node: fd.Type})
			}
		}
	}
}

func (r *pruner) selected(p *prunePkg, name string) bool {
	if token.IsExported(name) {
		return r.selAll[name]
	}
	return p.sel[name]
}

// selectName records x.name in package p (nil: outside the pruned
// packages): the methods of that name of reached types are reached.
func (r *pruner) selectName(p *prunePkg, name string) {
	if token.IsExported(name) {
		if r.selAll[name] {
			return
		}
		r.selAll[name] = true
		if name == "Method" || name == "MethodByName" {
			r.keepAllMethods()
		}
		for _, q := range r.pkgs {
			r.reachMethods(q, name)
		}
		return
	}
	if p == nil || p.sel[name] {
		return
	}
	p.sel[name] = true
	r.reachMethods(p, name)
}

func (r *pruner) reachMethods(p *prunePkg, name string) {
	for _, m := range p.byName[name] {
		if r.typeReached(p, m.recv) {
			r.reach(m)
		}
	}
}

func (r *pruner) typeReached(p *prunePkg, name string) bool {
	for _, u := range p.objs[name] {
		if u.isType && u.reached {
			return true
		}
	}
	return false
}

// keepAllMethods reaches every method of every reached type, now and
// from now on (reflect may call any of them).
func (r *pruner) keepAllMethods() {
	if r.methods {
		return
	}
	r.methods = true
	for _, p := range r.pkgs {
		for recv, ms := range p.byRecv {
			if r.typeReached(p, recv) {
				for _, m := range ms {
					r.reach(m)
				}
			}
		}
	}
}

// run scans reached units until no more are reached.
func (r *pruner) run() {
	for len(r.work) > 0 {
		u := r.work[len(r.work)-1]
		r.work = r.work[:len(r.work)-1]
		r.scan(u)
	}
}

// scan reaches what a reached declaration names.
func (r *pruner) scan(u *pruneUnit) {
	p, pf := u.pkg, u.file
	r.cur = u
	defer func() { r.cur = nil }()
	var visit func(n ast.Node) bool
	visit = func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.SelectorExpr:
			if id, ok := n.X.(*ast.Ident); ok {
				if path, ok := pf.imports[id.Name]; ok {
					r.markQualified(path, n.Sel.Name)
					if r.top[path][n.Sel.Name] {
						return false // a qualified identifier
					}
				}
				r.mark(p, id.Name) // a local shadowing an import, or a variable
			} else {
				ast.Inspect(n.X, visit)
			}
			r.selectName(p, n.Sel.Name)
			return false
		case *ast.Ident:
			r.mark(p, n.Name)
		}
		return true
	}
	ast.Inspect(u.node, visit)
}

// prune removes the unreached functions, the unreached types with their
// methods, the bodies of the other unreached methods and the unreached
// variable specs of every pruned package, and blanks the
// imports that are then unused. It returns the number of functions and
// variable specs removed.
func (r *pruner) prune() (funcs, vars, types int) {
	for _, p := range r.pkgs {
		// the unreached types go with their methods, except in the
		// packages whose types the VM's natives look up by name
		goneType := map[string]bool{}
		if !keepTypes[p.path] {
			for name, us := range p.objs {
				for _, u := range us {
					if u.isType && !u.reached && name != "_" {
						goneType[name] = true
					}
				}
			}
		}
		reached := map[ast.Node]bool{}
		for _, us := range p.objs {
			for _, u := range us {
				if u.reached {
					reached[u.node] = true
				}
			}
		}
		for _, us := range p.byRecv {
			for _, u := range us {
				if u.reached {
					reached[u.node] = true
				}
			}
		}
		for _, pf := range p.files {
			changed := false
			decls := pf.f.Decls[:0]
			for _, d := range pf.f.Decls {
				decls = append(decls, d)
				switch d := d.(type) {
				case *ast.FuncDecl:
					if d.Recv != nil && len(d.Recv.List) > 0 && goneType[recvName(d.Recv.List[0].Type)] {
						decls = decls[:len(decls)-1]
						funcs++
						changed = true
						continue
					}
					if d.Recv == nil && d.Name.Name == "init" {
						continue
					}
					if u := p.funcs[d]; u != nil && !u.reached {
						// a function nothing reachable names: its
						// declaration goes (a method stays, bodiless:
						// it belongs to its type's method set)
						decls = decls[:len(decls)-1]
						funcs++
						changed = true
						continue
					}
					if p.varsOnly || d.Body == nil || reached[d] || d.Type.TypeParams != nil || genericRecv(d) {
						continue
					}
					d.Body = nil
					funcs++
					changed = true
				case *ast.GenDecl:
					var n int
					switch {
					case d.Tok == token.TYPE && len(goneType) > 0:
						n = dropSpecs(d, func(s ast.Spec) bool { return goneType[s.(*ast.TypeSpec).Name.Name] })
						types += n
					case d.Tok == token.VAR:
						n = dropSpecs(d, func(s ast.Spec) bool {
							vs := s.(*ast.ValueSpec)
							return len(vs.Values) > 0 && !p.specs[vs].reached
						})
						vars += n
					}
					changed = changed || n > 0
					if n > 0 && len(d.Specs) == 0 {
						decls = decls[:len(decls)-1] // an empty declaration has no extent
					}
				}
			}
			pf.f.Decls = decls
			if changed {
				r.blankUnusedImports(pf)
			}
		}
	}
	return funcs, vars, types
}

// blankUnusedImports renames to _ the imports of a pruned file that no
// remaining pkg.Name selector uses, Name being a package-level name of the
// imported package when it is a pruned one (a local variable may have the
// import's name).
func (r *pruner) blankUnusedImports(pf *pruneFile) {
	used := map[string]bool{}
	ast.Inspect(pf.f, func(n ast.Node) bool {
		s, ok := n.(*ast.SelectorExpr)
		if !ok {
			return true
		}
		if id, ok := s.X.(*ast.Ident); ok {
			if path, ok := pf.imports[id.Name]; ok {
				if q := r.pkgs[path]; q == nil || q.names[s.Sel.Name] {
					used[id.Name] = true
				}
			}
		}
		return true
	})
	for _, im := range pf.f.Imports {
		name := pf.specName[im]
		if name != "_" && name != "." && !used[name] {
			im.Name = ast.NewIdent("_")
		}
	}
}

// dropSpecs removes the specs of d that drop selects and returns how many.
func dropSpecs(d *ast.GenDecl, drop func(ast.Spec) bool) int {
	keep := d.Specs[:0]
	for _, s := range d.Specs {
		if !drop(s) {
			keep = append(keep, s)
		}
	}
	n := len(d.Specs) - len(keep)
	d.Specs = keep
	return n
}
