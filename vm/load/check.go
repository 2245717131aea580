package load

import (
	"fmt"
	"go/ast"
	"go/build"
	"go/scanner"
	"go/token"
	"go/types"
	"os"
	"runtime"
	"sync"

	"golang.org/x/tools/go/packages"
)

// This file parses and type-checks the packages of go list's graph, as
// go/packages does with NeedSyntax|NeedTypes|NeedTypesInfo, so that the
// program is listed once: go/packages would run go list again (a third of
// a test's load; reach.go's graph already has what it reports) and read
// every file again. Each package is checked once its imports are, in
// parallel; its errors are go/packages' (Package.Errors, TypeErrors,
// IllTyped when it or an import has one).

// parseFunc returns the syntax of a file (the cache's, the preparsed one,
// or a fresh parse).
type parseFunc func(fset *token.FileSet, filename string) (*ast.File, error)

// checkPackages fills Syntax, Types, TypesInfo, TypesSizes and Fset of
// every package of pkgs and their dependencies.
func checkPackages(fset *token.FileSet, pkgs []*packages.Package, parse parseFunc) {
	sizes := types.SizesFor("gc", build.Default.GOARCH)
	if sizes == nil {
		sizes = types.SizesFor("gc", runtime.GOARCH)
	}
	done := map[*packages.Package]chan struct{}{}
	var all []*packages.Package
	packages.Visit(pkgs, nil, func(p *packages.Package) {
		done[p] = make(chan struct{})
		all = append(all, p)
	})
	// a file is parsed once, its tree shared by the packages that list
	// it (a package and its test variant), as go/packages does: a
	// position in it is then the same in both
	type parsed struct {
		once sync.Once
		f    *ast.File
		err  error
	}
	var mu sync.Mutex
	files := map[string]*parsed{}
	once := func(fset *token.FileSet, name string) (*ast.File, error) {
		mu.Lock()
		e := files[name]
		if e == nil {
			e = &parsed{}
			files[name] = e
		}
		mu.Unlock()
		e.once.Do(func() { e.f, e.err = parse(fset, name) })
		return e.f, e.err
	}
	cpu := make(chan struct{}, runtime.GOMAXPROCS(0))
	for _, p := range all {
		go func() {
			defer close(done[p])
			for _, q := range p.Imports {
				<-done[q]
			}
			cpu <- struct{}{}
			defer func() { <-cpu }()
			checkPackage(fset, p, once, sizes)
		}()
	}
	for _, p := range all {
		<-done[p]
	}
}

// checkPackage parses and type-checks p, its imports checked.
func checkPackage(fset *token.FileSet, p *packages.Package, parse parseFunc, sizes types.Sizes) {
	p.Fset = fset
	p.TypesSizes = sizes
	p.TypesInfo = &types.Info{
		Types:        make(map[ast.Expr]types.TypeAndValue),
		Defs:         make(map[*ast.Ident]types.Object),
		Uses:         make(map[*ast.Ident]types.Object),
		Implicits:    make(map[ast.Node]types.Object),
		Instances:    make(map[*ast.Ident]types.Instance),
		Scopes:       make(map[ast.Node]*types.Scope),
		Selections:   make(map[*ast.SelectorExpr]*types.Selection),
		FileVersions: make(map[*ast.File]string),
	}
	if p.PkgPath == "unsafe" {
		p.Types = types.Unsafe
		p.Syntax = []*ast.File{}
		return
	}
	p.Types = types.NewPackage(p.PkgPath, p.Name)
	appendError := func(err error) {
		switch err := err.(type) {
		case *os.PathError:
			p.Errors = append(p.Errors, packages.Error{Pos: err.Path + ":1", Msg: err.Err.Error(), Kind: packages.ParseError})
		case scanner.ErrorList:
			for _, e := range err {
				p.Errors = append(p.Errors, packages.Error{Pos: e.Pos.String(), Msg: e.Msg, Kind: packages.ParseError})
			}
		case types.Error:
			p.TypeErrors = append(p.TypeErrors, err)
			p.Errors = append(p.Errors, packages.Error{Pos: err.Fset.Position(err.Pos).String(), Msg: err.Msg, Kind: packages.TypeError})
		default:
			p.Errors = append(p.Errors, packages.Error{Pos: "-", Msg: err.Error(), Kind: packages.UnknownError})
		}
	}
	p.Syntax = make([]*ast.File, 0, len(p.CompiledGoFiles))
	for _, name := range p.CompiledGoFiles {
		f, err := parse(fset, name)
		if err != nil {
			appendError(err)
		}
		if f != nil {
			p.Syntax = append(p.Syntax, f)
		}
	}
	tc := &types.Config{
		Importer: importerFunc(func(path string) (*types.Package, error) {
			if path == "unsafe" {
				return types.Unsafe, nil
			}
			q := p.Imports[path]
			if q == nil || q.Types == nil {
				return nil, fmt.Errorf("no metadata for %s", path)
			}
			return q.Types, nil
		}),
		Error: appendError,
		Sizes: sizes,
	}
	if p.Module != nil && p.Module.GoVersion != "" {
		tc.GoVersion = "go" + p.Module.GoVersion
	}
	err := types.NewChecker(tc, fset, p.Types, p.TypesInfo).Files(p.Syntax)
	if err != nil && len(p.Errors) == 0 {
		appendError(err)
	}
	p.IllTyped = len(p.Errors) > 0
	for _, q := range p.Imports {
		p.IllTyped = p.IllTyped || q.IllTyped
	}
}

type importerFunc func(path string) (*types.Package, error)

func (f importerFunc) Import(path string) (*types.Package, error) { return f(path) }
