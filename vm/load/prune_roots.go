package load

import (
	"go/ast"
	"go/token"
	"strings"
)

// This file holds the pruner's roots (prune.go): what every program
// reaches, and what the VM's natives use by name.

// vmRoots are the declarations of interpreted packages that the VM's
// natives use by name ("pkg.Name"; a type's methods follow the usual rule).
var vmRoots = []string{
	"fmt.Sprintf", "fmt.Sprintln", // t.Log, t.Errorf (vm/entry.go)
	"context.Background", "context.WithCancel", // t.Context (vm/testing.go)
	"errors.errorString",                                                        // errors made by natives (vm/errvalues.go)
	"time.Time", "time.Timer", "time.Ticker", "time.localLoc", "time.startNano", // clock natives (vm/time.go)
	"embed.file",                                    // embedded files (vm/embed natives)
	"os.Process", "os.ProcessState", "os/user.User", // process natives
	"internal/oserror.ErrPermission", "internal/oserror.ErrExist", "internal/oserror.ErrNotExist",
	"errors.ErrUnsupported",                                               // syscall.Errno.Is (vm/natives_syscall.go)
	"syscall.Stdin", "syscall.Stdout", "syscall.Stderr", "syscall.ioSync", // initialized by natives (vm/natives_syscall.go)
	"crypto/rand.Reader",                                                 // vm/natives_cryptorand.go
	"flag.Bool", "flag.String", "flag.Int", "flag.Uint", "flag.Duration", // testing's flags (vm/testing_flags.go)
}

// keepTypes are the packages whose types the VM's natives look up by name
// (lookupType, namedType): their types are roots.
var keepTypes = map[string]bool{
	"reflect": true, "internal/reflectlite": true, "runtime": true, "runtime/pprof": true,
	"sync": true, "syscall": true, "internal/godebug": true, "os/exec": true,
	"testing": true, // the entry's *testing.T and its fields (vm/testing.go testField)
}

// vmMethods are the method names the VM calls on values of any type:
// Error and String (panic values, vm/panic.go), Write (vm/exec_self.go),
// Lock and Unlock (sync.Locker, vm/natives_sync.go).
var vmMethods = []string{"Error", "String", "Write", "Lock", "Unlock"}

// roots reaches what every program reaches: initializers, constants, the
// stripped packages' remaining bodies, variables whose initializers have
// effects or that array lengths name, and the VM's roots.
func (r *pruner) roots() {
	for _, p := range r.pkgs {
		// names in the array lengths of type declarations and
		// signatures: such a variable may size an array type
		// ([len(v)]T) that must stay well typed
		inTypes := map[string]bool{}
		for _, pf := range p.files {
			for _, d := range pf.f.Decls {
				switch d := d.(type) {
				case *ast.FuncDecl:
					if d.Recv != nil {
						arrayLenIdents(d.Recv, inTypes)
					}
					arrayLenIdents(d.Type, inTypes)
				case *ast.GenDecl:
					if d.Tok == token.TYPE {
						arrayLenIdents(d, inTypes)
					}
				}
			}
		}
		for _, pf := range p.files {
			for _, d := range pf.f.Decls {
				switch d := d.(type) {
				case *ast.FuncDecl:
					if d.Recv == nil && d.Name.Name == "init" || p.varsOnly && d.Body != nil && d.Type.TypeParams == nil && !genericRecv(d) {
						if u := p.funcs[d]; u != nil {
							r.reach(u)
						} else {
							r.scanNow(&pruneUnit{pkg: p, file: pf, node: d})
						}
					}
				case *ast.GenDecl:
					for _, s := range d.Specs {
						switch s := s.(type) {
						case *ast.ValueSpec:
							if d.Tok == token.CONST {
								r.scanNow(&pruneUnit{pkg: p, file: pf, node: s})
								continue
							}
							if varRoot(s, inTypes, p.varsOnly) {
								r.reach(p.specs[s])
							}
						}
					}
				}
			}
		}
	}
	for _, p := range r.pkgs {
		if keepTypes[p.path] {
			for _, us := range p.objs {
				for _, u := range us {
					if u.isType {
						r.reach(u)
					}
				}
			}
		}
	}
	for _, q := range vmRoots {
		i := strings.LastIndexByte(q, '.')
		r.markQualified(q[:i], q[i+1:])
	}
	for _, m := range vmMethods {
		r.selectName(nil, m)
	}
}

// scanNow reaches a declaration that is always kept (it is not a unit of
// the package's index).
func (r *pruner) scanNow(u *pruneUnit) {
	u.reached = true
	r.work = append(r.work, u)
}

// varRoot reports whether a variable spec is kept whether or not reached
// code names it: it has no initializer, a blank name, a name a type
// expression uses, or an initializer that calls or receives (conversions
// and builtins included: only effect-free composite literals are dropped).
//
// In a stripped or dead package (varsOnly) the initializer never runs
// (the VM's initializer of such a package is a no-op): only a variable
// without initializer (natives may set it: globalInits) or that sizes an
// array type is a root.
func varRoot(s *ast.ValueSpec, inTypes map[string]bool, varsOnly bool) bool {
	if len(s.Values) == 0 {
		return true
	}
	for _, n := range s.Names {
		if inTypes[n.Name] || n.Name == "_" && !varsOnly {
			return true
		}
	}
	if varsOnly {
		return false
	}
	effect := false
	for _, v := range s.Values {
		ast.Inspect(v, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.FuncLit:
				return false // runs only when called
			case *ast.CallExpr:
				effect = true
			case *ast.UnaryExpr:
				if n.Op == token.ARROW {
					effect = true
				}
			}
			return !effect
		})
	}
	return effect
}

// arrayLenIdents adds the identifiers of n's array lengths to into.
func arrayLenIdents(n ast.Node, into map[string]bool) {
	ast.Inspect(n, func(n ast.Node) bool {
		if a, ok := n.(*ast.ArrayType); ok && a.Len != nil {
			ast.Inspect(a.Len, func(n ast.Node) bool {
				if id, ok := n.(*ast.Ident); ok {
					into[id.Name] = true
				}
				return true
			})
		}
		return true
	})
}
