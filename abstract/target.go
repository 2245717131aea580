package abstract

import (
	"fmt"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/gmc-go/gmc/slice"
	"github.com/gmc-go/gmc/vm/load"
	"github.com/gmc-go/gmc/vm/loc"
	"golang.org/x/tools/go/ssa"
	"golang.org/x/tools/go/ssa/ssautil"
)

// SiteKind says where a candidate target comes from.
type SiteKind string

const (
	SiteLine    SiteKind = "line"    // --target file.go:LINE
	SiteComment SiteKind = "comment" // a //gmc:target comment
	SitePanic   SiteKind = "panic"   // a call of the builtin panic
	SiteAssert  SiteKind = "assert"  // t.Fatal, t.Error and friends in a test
	SiteRuntime SiteKind = "runtime" // a type assertion or division that may panic
)

// Site is one candidate target location.
type Site struct {
	Kind SiteKind
	Loc  loc.Loc
	Msg  string // what happens there, for the user
}

// TargetError is a bad target for the user: one line naming file:line.
type TargetError struct{ Msg string }

func (e *TargetError) Error() string { return e.Msg }

// RootFuncs returns the functions with bodies whose source is in one of the
// program's root packages (anonymous functions and methods included),
// sorted by name. The list is made once per program (ssautil.AllFunctions
// took 0.16 s for each test planned in maypok86/otter/v2); each caller gets
// a copy.
func RootFuncs(p *load.Program) []*ssa.Function {
	type rootFuncsKey struct{}
	if v, ok := p.Memo.Load(rootFuncsKey{}); ok {
		return slices.Clone(v.([]*ssa.Function))
	}
	out := rootFuncs(p)
	p.Memo.Store(rootFuncsKey{}, out)
	return slices.Clone(out)
}

// rootFuncs is RootFuncs without the memo.
func rootFuncs(p *load.Program) []*ssa.Function {
	roots := map[*ssa.Package]bool{}
	for _, r := range p.Roots {
		roots[r] = true
	}
	var out []*ssa.Function
	for fn := range ssautil.AllFunctions(p.SSA) {
		pkg := fn.Pkg
		if fn.Origin() != nil {
			pkg = fn.Origin().Pkg
		}
		if len(fn.Blocks) > 0 && roots[pkg] && fn.Synthetic == "" {
			out = append(out, fn)
		}
	}
	sort.Slice(out, func(i, j int) bool { return slice.FuncLess(out[i], out[j]) })
	return out
}

// ParseTarget resolves "file.go:LINE" to the first instruction on that line:
// in the function whose instruction on the line starts leftmost, the first in
// block order. The file is named by base name, by a path relative to the
// current directory or to the module root (matched as a path suffix), by an
// absolute path, or as importpath/file.go. Files of the root packages are
// searched first, then every file of the loaded program (a warning located
// in a dependency is handed back as printed); a name that matches files of
// several packages there is refused with the candidates.
func ParseTarget(p *load.Program, spec string) (loc.Loc, error) {
	i := strings.LastIndexByte(spec, ':')
	line, err := strconv.Atoi(spec[i+1:])
	if i <= 0 || err != nil || line <= 0 {
		return loc.Loc{}, &TargetError{fmt.Sprintf("gmc: bad target %q: want file.go:LINE", spec)}
	}
	matches := fileMatcher(spec[:i])
	best, fileSeen := lineIn(p, RootFuncs(p), matches, line)
	if best.Fn == nil && !fileSeen && !fileInRoots(p, func(name string) bool { return matches(name, "") }) {
		var files map[string]bool
		best, files = lineAnywhere(p, matches, line)
		if len(files) > 1 {
			var names []string
			for f := range files {
				names = append(names, f)
			}
			sort.Strings(names)
			return loc.Loc{}, &TargetError{fmt.Sprintf("%s: ambiguous: %s; name the file by a longer path", spec, strings.Join(names, ", "))}
		}
		if len(files) == 0 {
			return loc.Loc{}, &TargetError{fmt.Sprintf("%s: no such file in the program", spec)}
		}
	}
	if best.Fn == nil {
		return loc.Loc{}, &TargetError{fmt.Sprintf("%s: no statement on this line; name a line with code", spec)}
	}
	return best, nil
}

// fileMatcher matches a source file (and the import path of its package)
// against the file part of a target.
func fileMatcher(file string) func(name, pkgPath string) bool {
	file = filepath.ToSlash(filepath.Clean(file))
	abs := ""
	if a, err := filepath.Abs(file); err == nil {
		abs = filepath.ToSlash(a)
	}
	return func(name, pkgPath string) bool {
		name = filepath.ToSlash(name)
		return name == file || strings.HasSuffix(name, "/"+file) || name == abs ||
			(pkgPath != "" && pkgPath+"/"+filepath.Base(name) == file)
	}
}

// lineIn finds the target instruction on line of a matching file among
// funcs, and reports whether any instruction of funcs is in such a file.
func lineIn(p *load.Program, funcs []*ssa.Function, matches func(name, pkgPath string) bool, line int) (loc.Loc, bool) {
	fileSeen := false
	var best loc.Loc
	bestCol := 0
	for _, fn := range funcs {
		pkgPath := ""
		if pkg := funcPkg(fn); pkg != nil {
			pkgPath = pkg.Pkg.Path()
		}
		for _, b := range fn.Blocks {
			for _, in := range b.Instrs {
				pos := p.Fset.Position(in.Pos())
				if !pos.IsValid() || !matches(pos.Filename, pkgPath) {
					continue
				}
				fileSeen = true
				if pos.Line != line {
					continue
				}
				l := loc.Of(in)
				switch {
				case best.Fn == nil || (fn != best.Fn && pos.Column < bestCol):
					best, bestCol = l, pos.Column
				case fn == best.Fn && slice.Less(l, best):
					best = l
					if pos.Column < bestCol {
						bestCol = pos.Column
					}
				}
			}
		}
	}
	return best, fileSeen
}

// lineAnywhere looks for the target among every function of the program
// with a body, and returns the distinct matching files.
func lineAnywhere(p *load.Program, matches func(name, pkgPath string) bool, line int) (loc.Loc, map[string]bool) {
	files := map[string]bool{}
	var funcs []*ssa.Function
	for fn := range ssautil.AllFunctions(p.SSA) {
		if len(fn.Blocks) == 0 || fn.Synthetic != "" {
			continue
		}
		pkgPath := ""
		if pkg := funcPkg(fn); pkg != nil {
			pkgPath = pkg.Pkg.Path()
		}
		pos := p.Fset.Position(fn.Pos())
		if !pos.IsValid() || !matches(pos.Filename, pkgPath) {
			continue
		}
		files[pos.Filename] = true
		funcs = append(funcs, fn)
	}
	sort.Slice(funcs, func(i, j int) bool { return slice.FuncLess(funcs[i], funcs[j]) })
	best, _ := lineIn(p, funcs, matches, line)
	return best, files
}

func funcPkg(fn *ssa.Function) *ssa.Package {
	if fn.Origin() != nil {
		return fn.Origin().Pkg
	}
	return fn.Pkg
}

func fileInRoots(p *load.Program, matches func(string) bool) bool {
	for _, pkg := range p.Pkgs {
		for _, f := range pkg.CompiledGoFiles {
			if matches(f) {
				return true
			}
		}
		for _, f := range pkg.GoFiles {
			if matches(f) {
				return true
			}
		}
	}
	return false
}

// CommentTargets finds //gmc:target comments in the root packages: a comment
// at the end of a line marks that line; a comment alone on its line marks
// the next line.
func CommentTargets(p *load.Program) ([]Site, error) {
	return commentSites(p, "//gmc:target")
}

// UnreachableComments finds //gmc:unreachable comments in the root packages
// (placed as //gmc:target comments are): reaching a marked line is an error
// (vm.Options.Unreachable).
func UnreachableComments(p *load.Program) ([]loc.Loc, error) {
	sites, err := commentSites(p, "//gmc:unreachable")
	var out []loc.Loc
	for _, s := range sites {
		out = append(out, s.Loc)
	}
	return out, err
}

func commentSites(p *load.Program, marker string) ([]Site, error) {
	var out []Site
	seen := map[string]bool{}
	for _, pkg := range p.Pkgs {
		for _, f := range pkg.Syntax {
			src, _ := os.ReadFile(p.Fset.Position(f.Pos()).Filename)
			for _, cg := range f.Comments {
				for _, c := range cg.List {
					if c.Text != marker && !strings.HasPrefix(c.Text, marker+" ") {
						continue
					}
					pos := p.Fset.Position(c.Pos())
					line := pos.Line
					if alone(src, pos) {
						line++
					}
					spec := fmt.Sprintf("%s:%d", pos.Filename, line)
					if seen[spec] {
						continue
					}
					seen[spec] = true
					l, err := ParseTarget(p, spec)
					if err != nil {
						return nil, &TargetError{fmt.Sprintf("%s:%d: %s marks no statement", filepath.Base(pos.Filename), pos.Line, marker)}
					}
					out = append(out, Site{Kind: SiteComment, Loc: l, Msg: marker})
				}
			}
		}
	}
	sortSites(out)
	return out, nil
}

// alone reports whether only blanks precede position pos on its line.
func alone(src []byte, pos token.Position) bool {
	start := pos.Offset - (pos.Column - 1)
	if start < 0 || pos.Offset > len(src) {
		return false
	}
	return strings.TrimSpace(string(src[start:pos.Offset])) == ""
}

// PanicSites returns every call of the builtin panic in the root packages,
// the failing calls of a test (t.Fatal, t.Error, ...), and, when runtime is
// set, type assertions and integer divisions that may panic.
func PanicSites(p *load.Program, runtime bool) []Site {
	var out []Site
	for _, fn := range RootFuncs(p) {
		for _, b := range fn.Blocks {
			for _, in := range b.Instrs {
				if !in.Pos().IsValid() && !isPanic(in) {
					continue
				}
				switch in := in.(type) {
				case *ssa.Panic:
					if in.Pos().IsValid() || in.X.Pos().IsValid() {
						out = append(out, Site{SitePanic, loc.Of(in), "panic"})
					}
				case *ssa.Call:
					if callee := in.Call.StaticCallee(); callee != nil && assertMethods[callee.Name()] && isTesting(callee) {
						out = append(out, Site{SiteAssert, loc.Of(in), "t." + callee.Name()})
					}
				case *ssa.TypeAssert:
					if runtime && !in.CommaOk {
						out = append(out, Site{SiteRuntime, loc.Of(in), "type assertion may panic"})
					}
				case *ssa.BinOp:
					if runtime && (in.Op == token.QUO || in.Op == token.REM) && isInteger(in.Type()) {
						if _, isConst := in.Y.(*ssa.Const); !isConst {
							out = append(out, Site{SiteRuntime, loc.Of(in), "integer division by zero"})
						}
					}
				}
			}
		}
	}
	sortSites(out)
	return dedupSites(p.Fset, out)
}

func isPanic(in ssa.Instruction) bool { _, ok := in.(*ssa.Panic); return ok }

var assertMethods = map[string]bool{
	"Fatal": true, "Fatalf": true, "FailNow": true, "Error": true, "Errorf": true, "Fail": true,
}

func isTesting(fn *ssa.Function) bool {
	return fn.Pkg != nil && fn.Pkg.Pkg.Path() == "testing" && fn.Signature.Recv() != nil
}

func isInteger(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&types.IsInteger != 0
}

func sortSites(ss []Site) {
	sort.SliceStable(ss, func(i, j int) bool { return slice.Less(ss[i].Loc, ss[j].Loc) })
}

// dedupSites keeps one site per kind and source position (a package and its
// test variant share their source).
func dedupSites(fset *token.FileSet, ss []Site) []Site {
	seen := map[string]bool{}
	out := ss[:0]
	for _, s := range ss {
		k := string(s.Kind) + " " + fset.Position(s.Loc.Pos()).String()
		if !seen[k] {
			seen[k] = true
			out = append(out, s)
		}
	}
	return out
}

// ModuleFuncs returns the functions with bodies outside the standard library
// (the module under test and its non-standard dependencies), sorted by name.
func ModuleFuncs(p *load.Program) []*ssa.Function {
	roots := map[string]bool{}
	for _, r := range p.Roots {
		roots[r.Pkg.Path()] = true
	}
	inModule := func(path string) bool {
		return roots[path] || !isStdPath(path) ||
			(p.Module != "" && (path == p.Module || strings.HasPrefix(path, p.Module+"/")))
	}
	var out []*ssa.Function
	for fn := range ssautil.AllFunctions(p.SSA) {
		pkg := fn.Pkg
		if fn.Origin() != nil {
			pkg = fn.Origin().Pkg
		}
		if len(fn.Blocks) > 0 && pkg != nil && fn.Synthetic == "" && inModule(pkg.Pkg.Path()) {
			out = append(out, fn)
		}
	}
	sort.Slice(out, func(i, j int) bool { return slice.FuncLess(out[i], out[j]) })
	return out
}

func isStdPath(path string) bool {
	first, _, _ := strings.Cut(path, "/")
	return !strings.Contains(first, ".") && first != "command-line-arguments" && !strings.HasSuffix(path, ".test")
}

// RootCallers returns the call sites in the given root functions through
// which the function of l can be reached, nearest first; nothing if l is in
// a root function.
func RootCallers(roots map[*ssa.Function]bool, sp *slice.Program, l loc.Loc) []loc.Loc {
	if roots[l.Fn] {
		return nil
	}
	var out []loc.Loc
	seen := map[*ssa.Function]bool{l.Fn: true}
	work := []*ssa.Function{l.Fn}
	for len(work) > 0 && len(out) < 8 {
		fn := work[0]
		work = work[1:]
		for _, s := range sp.Callers(fn) {
			if roots[s.Loc.Fn] {
				if !containsLoc(out, s.Loc) {
					out = append(out, s.Loc)
				}
			} else if !seen[s.Loc.Fn] {
				seen[s.Loc.Fn] = true
				work = append(work, s.Loc.Fn)
			}
		}
	}
	return out
}
