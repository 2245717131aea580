package load

import (
	"bytes"
	"go/ast"
	"go/parser"
	"go/printer"
	"go/token"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// TestBlankBodies: for every file of a few large standard-library
// packages (and a file written to trip the scan), blanking the bodies
// before parsing gives, after stripBodies, the same declarations as
// parsing the whole file, and keeps generic and kept bodies.
func TestBlankBodies(t *testing.T) {
	keep := func(pkg string) func(string) bool {
		return func(key string) bool { return keepBodies[pkg+"."+key] }
	}
	fallbacks := 0
	check := func(name, pkg string, src []byte) {
		strip := func(src []byte) string {
			fset := token.NewFileSet()
			f, err := parser.ParseFile(fset, name, src, parser.AllErrors|parser.SkipObjectResolution)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			stripBodies(f, pkg)
			var b bytes.Buffer
			if err := printer.Fprint(&b, fset, f); err != nil {
				t.Fatal(err)
			}
			return b.String()
		}
		blanked := blankBodies(src, keep(pkg))
		if bytes.Equal(blanked, src) && hasStrippableBody(t, src, pkg) {
			fallbacks++ // unchanged although a body goes
			t.Logf("%s: not blanked", name)
		}
		if len(blanked) != len(src) || strings.Count(string(blanked), "\n") != strings.Count(string(src), "\n") {
			t.Fatalf("%s: blanking moved positions", name)
		}
		if got, want := strip(blanked), strip(src); got != want {
			t.Errorf("%s: blanked source strips to different declarations", name)
		}
	}
	src := []byte("package p\n\nimport \"strings\"\n\n" +
		"func a() interface{ M() } { return nil }\n" +
		"func b(x struct{ f int }) (r struct {\n\tg string\n}) {\n\ts := \"}{\" + `}` + string('}')\n\t/* } */ _ = s // }\n\treturn\n}\n" +
		"func G[T any](x T) T { return x }\n" +
		"type L[T any] struct{}\n\nfunc (l *L[T]) M() int { return strings.Count(\"a\", \"a\") }\n" +
		"func asm(x int) int\n\nfunc init() { println(1) }\n" +
		"func (t StructTag) Get(k string) string { return strings.ToUpper(k) }\n")
	check("trip.go", "reflect", src)
	if b := blankBodies(src, keep("reflect")); !bytes.Contains(b, []byte("return x")) || !bytes.Contains(b, []byte("strings.Count")) ||
		!bytes.Contains(b, []byte("strings.ToUpper")) || bytes.Contains(b, []byte("println")) {
		t.Errorf("generic or kept bodies blanked, or others not:\n%s", b)
	}
	for _, pkg := range []string{"net/http", "reflect", "runtime", "os", "syscall", "crypto/tls"} {
		dir := filepath.Join(runtime.GOROOT(), "src", pkg)
		files, _ := filepath.Glob(filepath.Join(dir, "*.go"))
		for _, fn := range files {
			if strings.HasSuffix(fn, "_test.go") {
				continue
			}
			data, err := os.ReadFile(fn)
			if err != nil {
				t.Fatal(err)
			}
			check(fn, pkg, data)
		}
	}
	if fallbacks > 0 {
		t.Errorf("%d files with bodies were not blanked", fallbacks)
	}
}

// hasStrippableBody reports whether src has a non-empty body that
// stripBodies removes from package pkg (one keepBodies does not keep).
func hasStrippableBody(t *testing.T, src []byte, pkg string) bool {
	f, err := parser.ParseFile(token.NewFileSet(), "x.go", src, parser.SkipObjectResolution)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range f.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && fd.Body != nil && len(fd.Body.List) > 0 && fd.Type.TypeParams == nil && !genericRecv(fd) && !keepBodies[pkg+"."+funcKey(fd)] {
			return true
		}
	}
	return false
}

// TestBlankTables: the elements of package-level composite literals of
// plain types are blanked (positions kept); [...] arrays, calls, constants
// and function bodies are not.
func TestBlankTables(t *testing.T) {
	src := `package p

const c = 3

var a = [4]int{1, 2,
	3, 4}

var (
	// m maps
	m = map[string]*T{"x": {1}}
	s   = []byte("keep")
	arr = [...]int{5, 6}
	t   = &T{n: 7}
	n int
)

func f() {
	var x = []int{8}
	_ = x
}
`
	got := string(blankTables([]byte(src)))
	if len(got) != len(src) || strings.Count(got, "\n") != strings.Count(src, "\n") {
		t.Fatalf("positions moved:\n%s", got)
	}
	for _, gone := range []string{"1, 2", "3, 4", `"x"`, "n: 7"} {
		if strings.Contains(got, gone) {
			t.Errorf("%s kept:\n%s", gone, got)
		}
	}
	for _, kept := range []string{"[4]int{", "map[string]*T{", `[]byte("keep")`, "[...]int{5, 6}", "&T{", "[]int{8}", "const c = 3", "n int"} {
		if !strings.Contains(got, kept) {
			t.Errorf("%s blanked:\n%s", kept, got)
		}
	}
}
