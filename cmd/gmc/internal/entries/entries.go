// Package entries lists the entries of a loaded package that `gmc check`
// can check in one invocation, and selects them by pattern.
//
// The entries of a package are, sorted by name:
//
//   - its tests and fuzz targets (TestXxx, FuzzXxx), as `go test` finds
//     them;
//   - its registered functions: package-level func() values handed,
//     together with a constant string, to a call in one of the package's
//     init functions — the way a table of named test programs registers
//     them (the GoKer kernels under $GOROOT/src/runtime/testdata/
//     testgoroutineleakprofile/goker call register("Cockroach584",
//     Cockroach584) in an init function). An entry is named by its
//     function's name, which is what --entry resolves.
//
// A package's main function is not in the list: it is the entry when none
// is named.
package entries

import (
	"fmt"
	"go/constant"
	"regexp"
	"sort"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/gmc-go/gmc/vm/load"
)

// Kind says how an entry was found.
type Kind string

const (
	// Test is a TestXxx function (func(*testing.T)).
	Test Kind = "test"
	// Fuzz is a FuzzXxx function (func(*testing.F)).
	Fuzz Kind = "fuzz"
	// Registered is a func() registered by name in an init function.
	Registered Kind = "registered"
)

// Entry is one entry of a package.
type Entry struct {
	Name string
	Kind Kind
}

// List returns the entries of prog's root packages, sorted by name.
func List(prog *load.Program) []Entry {
	seen := map[string]bool{}
	var out []Entry
	add := func(name string, k Kind) {
		if !seen[name] {
			seen[name] = true
			out = append(out, Entry{Name: name, Kind: k})
		}
	}
	for _, f := range prog.Tests() {
		k := Test
		if strings.HasPrefix(f.Name(), "Fuzz") {
			k = Fuzz
		}
		add(f.Name(), k)
	}
	for _, r := range prog.Roots {
		for _, f := range registered(r) {
			add(f.Name(), Registered)
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

// All is the --entry value that selects every entry.
const All = "all"

// Select returns the entries whose names match pattern: every entry for
// "all", else those a regular expression matches anywhere in the name
// (as `go test -run` matches). It is an error if pattern is not a regular
// expression or matches nothing.
func Select(list []Entry, pattern string) ([]Entry, error) {
	if pattern == All {
		if len(list) == 0 {
			return nil, fmt.Errorf("no tests, fuzz targets or registered functions to check")
		}
		return list, nil
	}
	re, err := regexp.Compile(pattern)
	if err != nil {
		return nil, fmt.Errorf("--entry %q is neither an entry nor a regular expression: %v", pattern, err)
	}
	var out []Entry
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
