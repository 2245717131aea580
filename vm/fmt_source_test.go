package vm_test

import (
	"sync"
	"testing"

	"github.com/gmc-go/gmc/vm"
	"github.com/gmc-go/gmc/vm/load"
)

// fmtSourceCases are the cases of testdata/fmtsrc with what the program
// built by Go 1.26 prints on stdout and stderr (recorded with
// `go build && ./fmtsrc CASE`): %v, %+v, %#v, %T of nested structs, maps,
// pointers, Stringers and errors, bad verbs, missing and extra operands;
// fmt.Errorf %w chains with errors.Is, As, Unwrap and Join; log with
// flags, prefixes, Panicf and SetOutput; String and Error methods that
// panic (fmt's own %!v(PANIC=...)).
var fmtSourceCases = []struct{ name, stdout, stderr string }{
	{"verbs",
		"{a [x y] map[b:2 m:13 z:26] {1 2} <nil> {} {3 4}}\n" +
			"{Name:a Tags:[x y] Attrs:map[b:2 m:13 z:26] Pt:{X:1 Y:2} Next:<nil> err:{} Any:{X:3 Y:4}}\n" +
			"main.point{X:1, Y:2}\n" +
			"[]string{\"x\", \"y\"} map[string]int{\"b\":2, \"m\":13, \"z\":26} []interface {}{1, \"s\", interface {}(nil), 2.5, main.point{X:0, Y:0}}\n" +
			"main.node *main.node map[string]int main.point <nil>\n" +
			"21.5°C [1.0°C 2.0°C] map[k:3.0°C]\n" +
			"green no color 1\n" +
			"green|no color|1\n" +
			"|  3.14|42    |-00042|+7|6869|01AB|10|010|101|1.234568e+03|1e-07|1E+21|\n" +
			"|\"a\\\"b\"|\"c`d\"|\"\\u00e9\"|λ|U+03BB|U+03BB 'λ'|     abc|ab      |-ff|\n" +
			"true false -003.500 +1.23e+04 0x1.cp+01\n" +
			"(1-2i) [true false false] {}\n" +
			"%!d(string=str) %!s(int=5)\n" +
			"1 %!d(MISSING)\n" +
			"1\n" +
			"%!(EXTRA int=2)%!!(MISSING)\n" +
			"2 1  5|4  |\n" +
			"goFormatter(3) {3} F[v w=0 plus=true]\n" +
			"F[v w=10 plus=false]|\n" +
			"a1 2bc3 <nil> x 1\n" +
			"\n" +
			"true <nil> [] map[]\n" +
			"(*int)(nil) []int(nil) map[int]bool(nil)\n" +
			"[<nil>] [1 2]\n" +
			"hey [104 101 121] 686579\n" +
			"[] &{X:7 Y:8}\n" +
			"map[{1 9}:a {2 1}:b] map[-1:3 2:2 3:1]\n" +
			"002.2|10000000000 17\n" +
			"[112 114 101 58 49 120] 007\n",
		"to stderr 1\n"},
	{"errors",
		"retry 3: open: code 7 true true\n" +
			"true true 7 true\n" +
			"\"open: code 7\\ntimeout\"\n" +
			"true true false\n" +
			"true true\n" +
			"both code 7 and file does not exist true true\n" +
			"open: code 7|open: code 7|code 7|\"code 7\"\n" +
			"no wrap code 7 true\n" +
			"%!w(<nil>) true true\n" +
			"true false unsupported operation\n" +
			"true\n" +
			"recovered: errors: target cannot be nil\n" +
			"recovered: errors: *target must be interface or implement error\n",
		""},
	{"log",
		"pfx: main.go:150: hello 1\n" +
			"main.go:152: pfx: x=2\n" +
			"[p] no newline\n" +
			"[p] newline\n" +
			"[p]  64 true\n" +
			"std 3\n" +
			"std: {1 2}\n" +
			"0 std:  true\n" +
			"std: bad 5\n" +
			"recovered: bad 5\n",
		"std: to stderr\n"},
	{"stringer-panic",
		"fine %!v(PANIC=String method: boom)\n" +
			"%!v(PANIC=String method: boom)|[%!s(PANIC=String method: boom) fine]|{0}\n" +
			"%!v(PANIC=Error method: runtime error: invalid memory address or nil pointer dereference)\n" +
			"<nil>\n" +
			"<nil>\n",
		""},
}

var fmtSourceProg = sync.OnceValues(func() (*load.Program, error) {
	return load.Load(load.Config{Dir: "testdata/fmtsrc"})
})

// TestFmtFromSource: fmt, internal/fmtsort, errors and log have no
// natives: the VM runs their Go source, over the reflect model, and prints
// what Go prints.
func TestFmtFromSource(t *testing.T) {
	prog, err := fmtSourceProg()
	if err != nil {
		t.Fatal(err)
	}
	for _, pkg := range []string{"fmt", "internal/fmtsort", "errors", "log"} {
		if !prog.Interpreted(pkg) {
			t.Errorf("%s is not interpreted", pkg)
		}
	}
	for _, c := range fmtSourceCases {
		t.Run(c.name, func(t *testing.T) {
			s := runStdlib(t, prog, c.name, vm.Checks{})
			if err := s.Err(); err != nil {
				t.Fatalf("error: %s: %s", err.Kind, err.Msg)
			}
			if got := s.Output(1); got != c.stdout {
				t.Errorf("stdout:\n%s\nwant:\n%s", got, c.stdout)
			}
			if got := s.Output(2); got != c.stderr {
				t.Errorf("stderr:\n%s\nwant:\n%s", got, c.stderr)
			}
		})
	}
}
