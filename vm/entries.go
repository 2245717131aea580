package vm

import (
	"errors"
	"fmt"
	"go/constant"
	"regexp"
	"sort"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/gmc-go/gmc/vm/load"
	"github.com/gmc-go/gmc/vm/loc"
)

// This file is the program's one entry resolver: FindEntry resolves a
// name to an entry, ListEntries lists the entries of a package that
// `gmc check` checks in one invocation and SelectEntries picks them by
// pattern, and DefaultEntryFuncs and RootFunc are the static analyses'
// entries (gmc slice).
//
// The entries of a package that ListEntries lists are, sorted by name:
//
//   - its tests, fuzz targets and examples with an output comment
//     (TestXxx, FuzzXxx, ExampleXxx), as `go test` finds them;
//   - its registered functions: package-level func() values handed,
//     together with a constant string, to a call in one of the package's
//     init functions — the way a table of named test programs registers
//     them (the GoKer kernels under $GOROOT/src/runtime/testdata/
//     testgoroutineleakprofile/goker call register("Cockroach584",
//     Cockroach584) in an init function). An entry is named by its
//     function's name, which is what FindEntry resolves.
//
// A package's main function is not in the list: it is the entry when none
// is named.

// EntryKind says how an entry function is called.
type EntryKind uint8

const (
	EntryMain    EntryKind = iota // func main()
	EntryTest                     // func TestXxx(t *testing.T)
	EntryFuzz                     // func FuzzXxx(f *testing.F)
	EntryFunc                     // any func() of a root package (e.g. a GoKer kernel)
	EntryExample                  // func ExampleXxx() with an output comment: its output is checked (example.go)
)

// Entry names the function a run starts in.
type Entry struct {
	Fn   *ssa.Function
	Kind EntryKind
	// Output and Unordered are an example's expected output (EntryExample)
	Output    string
	Unordered bool
}

// FindEntry resolves an entry name in m's program (FindEntry).
func (m *Machine) FindEntry(name string) (Entry, error) { return FindEntry(m.prog, name) }

// NoEntriesError is FindEntry's error for a package with no main
// function and no tests (it may still have fuzz targets or examples).
type NoEntriesError struct{ Pkg string }

func (e *NoEntriesError) Error() string {
	return fmt.Sprintf("gmc: %s has no main function and no tests; name one with --entry", e.Pkg)
}

// FindEntry resolves an entry name: "main", "TestXxx", "FuzzXxx" or the
// name of a niladic package-level function. "" picks main for a main
// package, else the only test.
func FindEntry(p *load.Program, name string) (Entry, error) {
	if name == "" {
		if mp := p.MainPackage(); mp != nil {
			return Entry{Fn: mp.Func("main"), Kind: EntryMain}, nil
		}
		tests := p.Tests()
		if len(tests) == 1 {
			return FindEntry(p, tests[0].Name())
		}
		if len(tests) == 0 {
			return Entry{}, &NoEntriesError{Pkg: rootName(p)}
		}
		var names []string
		for _, t := range tests {
			names = append(names, t.Name())
		}
		return Entry{}, fmt.Errorf("gmc: %s has %d tests (%s); choose one with --entry", rootName(p), len(tests), strings.Join(names, ", "))
	}
	if name == "main" {
		if mp := p.MainPackage(); mp != nil {
			return Entry{Fn: mp.Func("main"), Kind: EntryMain}, nil
		}
	}
	f := p.Func(name)
	if f == nil {
		return Entry{}, fmt.Errorf("gmc: %s has no function %s", rootName(p), name)
	}
	if strings.HasPrefix(name, "Example") {
		for _, ex := range p.Examples() {
			if ex.Fn == f {
				return Entry{Fn: f, Kind: EntryExample, Output: ex.Output, Unordered: ex.Unordered}, nil
			}
		}
	}
	sig := f.Signature
	switch {
	case sig.Params().Len() == 1 && sig.Params().At(0).Type().String() == "*testing.T":
		return Entry{Fn: f, Kind: EntryTest}, nil
	case sig.Params().Len() == 1 && sig.Params().At(0).Type().String() == "*testing.F":
		return Entry{Fn: f, Kind: EntryFuzz}, nil
	case sig.Params().Len() == 0 && sig.Results().Len() == 0:
		if f.Name() == "main" {
			return Entry{Fn: f, Kind: EntryMain}, nil
		}
		return Entry{Fn: f, Kind: EntryFunc}, nil
	}
	return Entry{}, fmt.Errorf("%s: gmc: %s is not a valid entry (want func main(), func(*testing.T), func(*testing.F) or func())", (loc.Loc{Fn: f, Index: -1}).Position(p.Fset), name)
}

func rootName(p *load.Program) string {
	if len(p.Roots) == 0 {
		return "package"
	}
	return p.Roots[0].Pkg.Path()
}

// ListedKind says how a listed entry was found.
type ListedKind string

const (
	// ListedTest is a TestXxx function (func(*testing.T)).
	ListedTest ListedKind = "test"
	// ListedFuzz is a FuzzXxx function (func(*testing.F)).
	ListedFuzz ListedKind = "fuzz"
	// ListedRegistered is a func() registered by name in an init function.
	ListedRegistered ListedKind = "registered"
	// ListedExample is an ExampleXxx function with an output comment.
	ListedExample ListedKind = "example"
)

// Listed is one entry of a package, by name (FindEntry resolves it).
type Listed struct {
	Name string
	Kind ListedKind
}

// ListEntries returns the entries of prog's root packages, sorted by name.
func ListEntries(prog *load.Program) []Listed {
	seen := map[string]bool{}
	var out []Listed
	add := func(name string, k ListedKind) {
		if !seen[name] {
			seen[name] = true
			out = append(out, Listed{Name: name, Kind: k})
		}
	}
	for _, f := range prog.Tests() {
		k := ListedTest
		if strings.HasPrefix(f.Name(), "Fuzz") {
			k = ListedFuzz
		}
		add(f.Name(), k)
	}
	for _, ex := range prog.Examples() {
		add(ex.Fn.Name(), ListedExample)
	}
	for _, r := range prog.Roots {
		for _, f := range registered(r) {
			add(f.Name(), ListedRegistered)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// registered finds the functions pkg's init functions register by name.
func registered(pkg *ssa.Package) []*ssa.Function {
	var out []*ssa.Function
	for _, fn := range initFuncs(pkg) {
		for _, b := range fn.Blocks {
			for _, in := range b.Instrs {
				call, ok := in.(ssa.CallInstruction)
				if !ok {
					continue
				}
				named, target := false, (*ssa.Function)(nil)
				for _, a := range call.Common().Args {
					switch v := a.(type) {
					case *ssa.Const:
						named = named || (v.Value != nil && v.Value.Kind() == constant.String)
					case *ssa.Function:
						if v.Pkg == pkg && v.Parent() == nil && niladic(v) {
							target = v
						}
					}
				}
				if named && target != nil {
					out = append(out, target)
				}
			}
		}
	}
	return out
}

// initFuncs returns pkg's initializer and the bodies of its init
// declarations (init#1, init#2, ...), which the initializer calls.
func initFuncs(pkg *ssa.Package) []*ssa.Function {
	init := pkg.Func("init")
	if init == nil {
		return nil
	}
	out := []*ssa.Function{init}
	for _, b := range init.Blocks {
		for _, in := range b.Instrs {
			if call, ok := in.(*ssa.Call); ok {
				if f := call.Common().StaticCallee(); f != nil && f.Pkg == pkg && strings.HasPrefix(f.Name(), "init#") {
					out = append(out, f)
				}
			}
		}
	}
	return out
}

func niladic(f *ssa.Function) bool {
	return f.Signature.Params().Len() == 0 && f.Signature.Results().Len() == 0 && f.Signature.Recv() == nil
}

// AllEntries is the --entry value that selects every entry.
const AllEntries = "all"

// SelectEntries returns the entries whose names match pattern: every entry for
// "all", else those a regular expression matches anywhere in the name
// (as `go test -run` matches). It is an error if pattern is not a regular
// expression or matches nothing.
func SelectEntries(list []Listed, pattern string) ([]Listed, error) {
	if pattern == AllEntries {
		if len(list) == 0 {
			return nil, fmt.Errorf("no tests, fuzz targets or registered functions to check")
		}
		return list, nil
	}
	re, err := regexp.Compile(pattern)
	if err != nil {
		return nil, fmt.Errorf("--entry %q is neither an entry nor a regular expression: %v", pattern, err)
	}
	var out []Listed
	for _, e := range list {
		if re.MatchString(e.Name) {
			out = append(out, e)
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("--entry %q matches none of the %d entries", pattern, len(list))
	}
	return out, nil
}

// DefaultEntryFuncs returns the entry functions of a loaded program: main.main
// of a main package, otherwise its TestXxx and FuzzXxx functions.
func DefaultEntryFuncs(p *load.Program) []*ssa.Function {
	if fn := rootFunc(p, "main"); fn != nil && fn.Pkg.Pkg.Name() == "main" {
		return []*ssa.Function{fn}
	}
	return p.Tests()
}

// rootFunc finds a package-level function of the roots, preferring a
// package's test variant (more members) to the package itself, as
// abstract.ParseTarget does, so that entries and targets are in the same copy.
func rootFunc(p *load.Program, name string) *ssa.Function {
	var best *ssa.Function
	for _, r := range p.Roots {
		if fn := r.Func(name); fn != nil && (best == nil || len(r.Members) > len(best.Pkg.Members)) {
			best = fn
		}
	}
	return best
}

// RootEntryFunc resolves an --entry name of the static analyses: "main", a TestXxx/FuzzXxx, or any
// package-level function of the roots.
func RootEntryFunc(p *load.Program, name string) (*ssa.Function, error) {
	if name == "" {
		es := DefaultEntryFuncs(p)
		if len(es) == 0 {
			return nil, errors.New("gmc: no entry: the package has no main and no tests; use --entry")
		}
		return es[0], nil
	}
	if fn := rootFunc(p, name); fn != nil {
		return fn, nil
	}
	return nil, fmt.Errorf("gmc: no function %s in the package", name)
}

// ResolveEntries is the entries a check of one or more entries checks:
// the one entry names (listed with its kind; kind "main" for a main or
// another function) or those it matches as a pattern (SelectEntries), or,
// for "", every test, fuzz target and example with output (as go test
// runs them; main when the package has none).
func ResolveEntries(prog *load.Program, entry string) ([]Listed, error) {
	e, findErr := FindEntry(prog, entry)
	if entry == "" {
		var sel []Listed
		for _, en := range ListEntries(prog) {
			if en.Kind == ListedTest || en.Kind == ListedFuzz || en.Kind == ListedExample {
				sel = append(sel, en)
			}
		}
		if len(sel) == 0 && findErr == nil && e.Kind == EntryMain {
			sel = append(sel, Listed{Name: "main", Kind: "main"})
		}
		if len(sel) == 0 {
			return nil, findErr
		}
		return sel, nil
	}
	if findErr == nil {
		for _, en := range ListEntries(prog) {
			if en.Name == entry {
				return []Listed{en}, nil
			}
		}
		return []Listed{{Name: entry, Kind: "main"}}, nil
	}
	return SelectEntries(ListEntries(prog), entry)
}
