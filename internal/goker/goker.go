// Package goker reads the GoBench bug kernels that ship with Go
// ($(go env GOROOT)/src/runtime/testdata/testgoroutineleakprofile: the
// GoKer kernels in goker/, the micro and pattern cases beside them) and the
// Go project's expected leaks for each (the makeTest and makeFlakyTest
// calls of runtime/goroutineleakprofile_test.go), and matches a leak report
// against them the way the Go project's test does. Everything is read from
// GOROOT at run time; nothing of it is copied into this repository.
package goker

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"sort"
	"strconv"
	"strings"

	"github.com/gmc-go/gmc/vm"
)

// Base is the directory of the leak-profile test programs in GOROOT.
func Base() string {
	return filepath.Join(runtime.GOROOT(), "src", "runtime", "testdata", "testgoroutineleakprofile")
}

// Case is one registered kernel or micro case: Name is its registered
// name, Func the function it runs, Dir the package directory.
type Case struct {
	Name, Func, Dir string
	GoKer           bool // a GoKer kernel (not a micro or pattern case)
}

var registerRe = regexp.MustCompile(`register\("(\w+)",\s*(\w+)\)`)

// Cases returns the GoKer kernels and then the micro and pattern cases
// (simple.go, commonpatterns.go), each group sorted by name.
func Cases() ([]Case, error) {
	base := Base()
	gk := filepath.Join(base, "goker")
	files, err := filepath.Glob(filepath.Join(gk, "*.go"))
	if err != nil || len(files) == 0 {
		return nil, fmt.Errorf("no GoKer kernels in %s", gk)
	}
	kernels, err := registered(gk, files, true)
	if err != nil {
		return nil, err
	}
	micro, err := registered(base, []string{filepath.Join(base, "simple.go"), filepath.Join(base, "commonpatterns.go")}, false)
	if err != nil {
		return nil, err
	}
	return append(kernels, micro...), nil
}

func registered(dir string, files []string, goker bool) ([]Case, error) {
	var out []Case
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		for _, m := range registerRe.FindAllStringSubmatch(string(data), -1) {
			out = append(out, Case{Name: m[1], Func: m[2], Dir: dir, GoKer: goker})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, nil
}

// Expectation is one upstream test case: all Patterns of a makeTest case
// must appear (the leak is deterministic); those of a makeFlakyTest case
// may appear.
type Expectation struct {
	Name     string
	Flaky    bool
	Patterns []*regexp.Regexp
}

// Expectations parses the makeTest/makeFlakyTest calls of the Go project's
// goroutineleakprofile_test.go, by case name.
func Expectations() (map[string]*Expectation, error) {
	path := filepath.Join(runtime.GOROOT(), "src", "runtime", "goroutineleakprofile_test.go")
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, path, nil, 0)
	if err != nil {
		return nil, err
	}
	out := map[string]*Expectation{}
	var perr error
	ast.Inspect(f, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok || perr != nil {
			return perr == nil
		}
		id, ok := call.Fun.(*ast.Ident)
		if !ok || (id.Name != "makeTest" && id.Name != "makeFlakyTest") || len(call.Args) == 0 {
			return true
		}
		var strs []string
		for _, a := range call.Args {
			lit, ok := a.(*ast.BasicLit)
			if !ok || lit.Kind != token.STRING {
				return true // the definitions of makeTest/makeFlakyTest themselves
			}
			s, err := strconv.Unquote(lit.Value)
			if err != nil {
				perr = fmt.Errorf("%s: %v", fset.Position(lit.Pos()), err)
				return false
			}
			strs = append(strs, s)
		}
		e := &Expectation{Name: strs[0], Flaky: id.Name == "makeFlakyTest"}
		for _, p := range strs[1:] {
			re, err := regexp.Compile(p)
			if err != nil {
				perr = err
				return false
			}
			e.Patterns = append(e.Patterns, re)
		}
		out[e.Name] = e
		return true
	})
	if perr != nil {
		return nil, perr
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no makeTest/makeFlakyTest cases in %s", path)
	}
	return out, nil
}

// LeakLine is a leaked goroutine as the upstream test sees it:
// "<bottom frame without main.>(...) [<wait reason>]". The bottom frame of
// a Go traceback is the function the goroutine was started with, wrappers
// (.gowrapN, -fm) elided: the VM's bottom stack frame, else its Start.
func LeakLine(g vm.GoroutineInfo) string {
	fn := g.Start
	for i := len(g.Stack) - 1; i >= 0; i-- {
		if f := g.Stack[i].Func; !strings.Contains(f, ".gowrap") && !strings.HasSuffix(f, "-fm") {
			fn = f
			break
		}
	}
	return strings.TrimPrefix(fn, "main.") + "(...) [" + g.Wait + "]"
}

// Match matches leaked goroutines' lines against the patterns: matched
// holds the indexes of the patterns seen, unexpected the lines matching
// none (deduplicated, in order). A nil e matches nothing.
func (e *Expectation) Match(lines []string) (matched map[int]bool, unexpected []string) {
	matched = map[int]bool{}
	seen := map[string]bool{}
	for _, l := range lines {
		ok := false
		if e != nil {
			for i, p := range e.Patterns {
				if p.MatchString(l) {
					matched[i] = true
					ok = true
					break
				}
			}
		}
		if !ok && !seen[l] {
			seen[l] = true
			unexpected = append(unexpected, l)
		}
	}
	return matched, unexpected
}

// Satisfied reports whether one leak report satisfies the expectation: at
// least one goroutine leaked, every leaked goroutine matches a pattern and,
// for a deterministic (makeTest) case, every pattern appears.
func (e *Expectation) Satisfied(lines []string) bool {
	if e == nil || len(lines) == 0 {
		return false
	}
	matched, unexpected := e.Match(lines)
	if len(unexpected) > 0 {
		return false
	}
	return e.Flaky || len(matched) == len(e.Patterns)
}
