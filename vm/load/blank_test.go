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
		if bytes.Equal(blanked, src) && hasStrippableBody(t, src) {
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
// stripBodies removes.
func hasStrippableBody(t *testing.T, src []byte) bool {
	f, err := parser.ParseFile(token.NewFileSet(), "x.go", src, parser.SkipObjectResolution)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range f.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && fd.Body != nil && len(fd.Body.List) > 0 && fd.Type.TypeParams == nil && !genericRecv(fd) {
			return true
		}
	}
	return false
}
