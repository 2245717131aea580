package load

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"testing"

	"golang.org/x/tools/go/ssa"
)

// TestPruneUnits: the pruner keeps what reached code names and removes the
// rest: an unreached function whole, an unreached method's body, an
// unreached table, an unreached type with its methods; a method whose name reached code selects on a reached
// type, an initializer with effects, a variable a type expression uses and
// a call through an import shadowed by a local variable stay.
func TestPruneUnits(t *testing.T) {
	const src = `package a

import "b"

var table = []int{1, 2, 3}       // unreached: dropped
var used = []int{4}              // named by Entry
var effect = b.Make()            // an initializer with a call: kept
var sized = [2]int{}             // sizes Arr: kept
var _ = 1

type Arr [len(sized)]int // unreached: removed (sized stays)

type T struct{ n int }

func (t *T) M() int { return t.n }  // selected by Entry: kept
func (t *T) N() int { return 2 }    // never selected: bodiless
func (t *T) Keep() int { return 3 } // selected by the outside code

type U struct{}

func (U) M() int { return 4 } // U is never reached: removed with its methods

func Entry() int {
	var x T
	b := struct{ M func() int }{}
	_ = b.M
	return x.M() + used[0]
}

func unused() int { return helper() } // removed whole
func helper() int  { return 0 }       // named only by unused: removed whole
`
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "a.go", src, parser.SkipObjectResolution)
	if err != nil {
		t.Fatal(err)
	}
	r := newPruner()
	r.addPackage("a", false, []*ast.File{f}, func(p string) string { return p }, func(p string) string { return p })
	r.top = map[string]map[string]bool{"b": {"Make": true}}
	r.markQualified("a", "Entry")
	r.selectName(nil, "Keep")
	r.roots()
	r.run()
	funcs, vars, types := r.prune()
	bodies := map[string]bool{}
	decls := map[string]bool{}
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			key := funcKey(d)
			decls[key] = true
			bodies[key] = d.Body != nil
		case *ast.GenDecl:
			for _, s := range d.Specs {
				switch s := s.(type) {
				case *ast.ValueSpec:
					decls[s.Names[0].Name] = true
				case *ast.TypeSpec:
					decls[s.Name.Name] = true
				}
			}
		}
	}
	for _, k := range []string{"Entry", "T.M", "T.Keep"} {
		if !bodies[k] {
			t.Errorf("%s lost its body", k)
		}
	}
	for _, k := range []string{"T.N"} {
		if !decls[k] || bodies[k] {
			t.Errorf("%s: declared %v, body %v; want a bodiless declaration", k, decls[k], bodies[k])
		}
	}
	for _, k := range []string{"unused", "helper", "table", "U", "U.M", "Arr"} {
		if decls[k] {
			t.Errorf("%s was kept", k)
		}
	}
	for _, k := range []string{"used", "effect", "sized", "_"} {
		if !decls[k] {
			t.Errorf("variable %s was dropped", k)
		}
	}
	if funcs != 4 || vars != 1 || types != 2 {
		t.Errorf("removed %d functions, %d variables and %d types, want 4, 1 and 2", funcs, vars, types)
	}
}

// TestPruneStd: a program's load keeps the standard-library code it
// reaches and drops what it cannot reach, and every package still
// type-checks (load reports errPruned otherwise).
func TestPruneStd(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"go.mod": "module prunestd\n\ngo 1.23\n",
		// net/http: stripped, with net's cgo files (go/packages lists
		// runtime/cgo, which the graph's go list does not)
		"main.go": "package main\n\nimport (\n\t\"fmt\"\n\t\"net/http\"\n\t\"strings\"\n)\n\nvar _ = http.StatusOK\n\nfunc main() { fmt.Println(strings.ToUpper(\"gmc\")) }\n",
	}
	for name, src := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	pruned, err := load(dir, []string{"."}, true, "")
	if err != nil {
		t.Fatal(err)
	}
	whole, err := load(dir, []string{"."}, false, "")
	if err != nil {
		t.Fatal(err)
	}
	pkg := func(p *Program, path string) *ssa.Package {
		sp := p.SSA.ImportedPackage(path)
		if sp == nil {
			t.Fatalf("no package %s", path)
		}
		return sp
	}
	for _, p := range []*Program{pruned, whole} {
		if f := pkg(p, "strings").Func("ToUpper"); f == nil || f.Blocks == nil {
			t.Errorf("strings.ToUpper lost its body")
		}
		if f := pkg(p, "fmt").Func("Println"); f == nil || f.Blocks == nil {
			t.Errorf("fmt.Println lost its body")
		}
	}
	// strings.Title and unicode's table of categories: nothing the
	// program runs names them
	if pkg(pruned, "strings").Func("Title") != nil || pkg(pruned, "unicode").Members["Categories"] != nil {
		t.Errorf("strings.Title or unicode.Categories kept")
	}
	if pkg(whole, "strings").Func("Title") == nil || pkg(whole, "unicode").Members["Categories"] == nil {
		t.Errorf("the unpruned load lacks strings.Title or unicode.Categories")
	}
}
