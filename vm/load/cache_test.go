package load

import (
	"fmt"
	"go/ast"
	"go/token"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	"golang.org/x/tools/go/packages"
	"golang.org/x/tools/go/ssa/ssautil"
)

// writeModule writes files into a new temporary directory.
func writeModule(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, src := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// cacheProgram imports net/http (stripped, with net's cgo files), fmt and
// strings (pruned) and has a test (the test variant's files).
var cacheProgram = map[string]string{
	"go.mod":       "module cacheprog\n\ngo 1.23\n",
	"main.go":      "package main\n\nimport (\n\t\"fmt\"\n\t\"net/http\"\n\t\"strings\"\n)\n\nvar _ = http.StatusOK\n\nfunc main() { fmt.Println(strings.ToUpper(\"gmc\")) }\n",
	"main_test.go": "package main\n\nimport (\n\t\"encoding/json\"\n\t\"testing\"\n)\n\nfunc TestJSON(t *testing.T) { b, _ := json.Marshal(map[string]int{\"a\": 1}); t.Log(string(b)) }\n",
}

// TestLoadCache: a second load of the same program takes the standard
// library's pruned files from the cache and gets the same syntax trees
// (node for node, every position's line and column included) and the
// same SSA; a damaged entry is
// ignored; an edit of the program that names nothing new in the standard
// library hits the same entry; one that does is another key (what it now
// reaches is kept).
func TestLoadCache(t *testing.T) {
	dir := writeModule(t, cacheProgram)
	cache := t.TempDir()
	hits, stores := cacheStats.hits.Load(), cacheStats.stores.Load()
	cold, err := load(dir, []string{"."}, true, cache)
	if err != nil {
		t.Fatal(err)
	}
	if cacheStats.stores.Load() != stores+1 || cacheStats.hits.Load() != hits {
		t.Fatalf("the first load stored %d entries and hit %d times, want 1 and 0", cacheStats.stores.Load()-stores, cacheStats.hits.Load()-hits)
	}
	sharedTrees(t, cold)
	warm, err := load(dir, []string{"."}, true, cache)
	if err != nil {
		t.Fatal(err)
	}
	if cacheStats.hits.Load() != hits+1 {
		t.Fatalf("the second load did not hit the cache")
	}
	sharedTrees(t, warm)
	a, b := stdTrees(t, cold), stdTrees(t, warm)
	if len(a) < 100 {
		t.Fatalf("only %d standard-library files", len(a))
	}
	for name, da := range a {
		if db, ok := b[name]; !ok {
			t.Errorf("%s: not in the cached load", name)
		} else if da != db {
			t.Errorf("%s: the cached load's tree differs:\n%s", name, firstDiff(da, db))
		}
	}
	if len(a) != len(b) {
		t.Errorf("%d files loaded, %d from the cache", len(a), len(b))
	}
	if sa, sb := ssaSummary(cold), ssaSummary(warm); !reflect.DeepEqual(sa, sb) {
		t.Errorf("the SSA differs: %d against %d functions: %s", len(sa), len(sb), listDiff(sa, sb))
	}
	if !reflect.DeepEqual(cold.stripped, warm.stripped) {
		t.Errorf("stripped packages differ")
	}

	// a damaged entry: ignored, and written again
	ents, _ := filepath.Glob(filepath.Join(cache, strings.Repeat("?", 64)))
	if len(ents) != 1 {
		t.Fatalf("%d entries, want 1", len(ents))
	}
	data, _ := os.ReadFile(ents[0])
	data[len(data)/2] ^= 0xff
	os.WriteFile(ents[0], data, 0o644)
	hits, stores = cacheStats.hits.Load(), cacheStats.stores.Load()
	again, err := load(dir, []string{"."}, true, cache)
	if err != nil {
		t.Fatal(err)
	}
	if cacheStats.hits.Load() != hits || cacheStats.stores.Load() != stores+1 {
		t.Errorf("a damaged entry was used, or not replaced")
	}
	if !reflect.DeepEqual(ssaSummary(again), ssaSummary(cold)) {
		t.Errorf("the load after a damaged entry differs")
	}

	// an edit that names nothing new: the same entry
	src := strings.Replace(cacheProgram["main.go"], `"gmc"`, `"gmc, edited"`, 1)
	os.WriteFile(filepath.Join(dir, "main.go"), []byte(src), 0o644)
	hits = cacheStats.hits.Load()
	same, err := load(dir, []string{"."}, true, cache)
	if err != nil {
		t.Fatal(err)
	}
	if cacheStats.hits.Load() != hits+1 {
		t.Errorf("an edit naming nothing new missed the cache")
	}
	if c := stdTrees(t, same); !reflect.DeepEqual(c, a) {
		t.Errorf("the edited program's standard library differs")
	}

	// the program now calls strings.Title, which the pruned entry dropped
	src = strings.Replace(cacheProgram["main.go"], "strings.ToUpper", "strings.Title", 1)
	os.WriteFile(filepath.Join(dir, "main.go"), []byte(src), 0o644)
	hits = cacheStats.hits.Load()
	edited, err := load(dir, []string{"."}, true, cache)
	if err != nil {
		t.Fatal(err)
	}
	if cacheStats.hits.Load() != hits {
		t.Errorf("an edited program hit the cache")
	}
	if f := edited.SSA.ImportedPackage("strings").Func("Title"); f == nil || f.Blocks == nil {
		t.Errorf("strings.Title missing after the edit")
	}
}

// stdTrees dumps the syntax of every standard-library file of p.
func stdTrees(t *testing.T, p *Program) map[string]string {
	out := map[string]string{}
	packages.Visit(p.Pkgs, nil, func(q *packages.Package) {
		for _, f := range q.Syntax {
			tf := p.Fset.File(f.Package)
			name := filepath.ToSlash(tf.Name())
			if !strings.HasPrefix(name, gorootSrc) {
				continue
			}
			var sb strings.Builder
			ast.Inspect(f, func(n ast.Node) bool {
				if n == nil {
					sb.WriteString(")")
					return false
				}
				fmt.Fprintf(&sb, "(%T %s %s", n, lineCol(p, n.Pos()), lineCol(p, n.End()))
				switch n := n.(type) {
				case *ast.Ident:
					sb.WriteString(" " + n.Name)
				case *ast.BasicLit:
					sb.WriteString(" " + n.Value)
				case *ast.FuncDecl:
					fmt.Fprintf(&sb, " body=%v", n.Body != nil)
				case *ast.GenDecl:
					fmt.Fprintf(&sb, " %s %d", n.Tok, len(n.Specs))
				case *ast.File:
					fmt.Fprintf(&sb, " %q %d", n.GoVersion, len(n.Imports))
				}
				return true
			})
			out[name] = sb.String()
		}
	})
	return out
}

// lineCol is pos's line and column, "-" for no position.
func lineCol(p *Program, pos token.Pos) string {
	if !pos.IsValid() {
		return "-"
	}
	at := p.Fset.Position(pos)
	return fmt.Sprintf("%d:%d", at.Line, at.Column)
}

// firstDiff shows where two dumps part.
func firstDiff(a, b string) string {
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	from := max(0, i-200)
	return fmt.Sprintf("...%s\n   against\n...%s", a[from:min(len(a), i+200)], b[from:min(len(b), i+200)])
}

// ssaSummary lists every function of p's SSA program (methods and
// closures included) with its number of
// blocks and instructions.
func ssaSummary(p *Program) []string {
	var out []string
	for f := range ssautil.AllFunctions(p.SSA) {
		n := 0
		for _, b := range f.Blocks {
			n += len(b.Instrs)
		}
		// an instance's type arguments are named as the first
		// instantiation spelled them (os.DirEntry or io/fs.DirEntry)
		name := f.String()
		if i := strings.IndexByte(name, '['); i >= 0 {
			name = name[:i]
		}
		out = append(out, fmt.Sprintf("%s %d %d", name, len(f.Blocks), n))
	}
	sort.Strings(out)
	return out
}

// listDiff shows the first elements of two sorted lists that differ.
func listDiff(a, b []string) string {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return a[i] + " against " + b[i]
		}
	}
	return fmt.Sprintf("lengths %d and %d", len(a), len(b))
}

// sharedTrees checks that a file listed by two packages (main.go: the
// package and its test variant) has one syntax tree, as go/packages
// gives it: a position in it is the same in both.
func sharedTrees(t *testing.T, p *Program) {
	t.Helper()
	trees := map[string]*ast.File{}
	shared := 0
	packages.Visit(p.Pkgs, nil, func(q *packages.Package) {
		for _, f := range q.Syntax {
			name := p.Fset.File(f.Package).Name()
			if g, ok := trees[name]; ok {
				shared++
				if g != f {
					t.Errorf("%s: two syntax trees", name)
				}
			}
			trees[name] = f
		}
	})
	if shared == 0 {
		t.Errorf("no file is listed by two packages")
	}
}
