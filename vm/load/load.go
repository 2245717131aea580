// Package load turns a Go package pattern into SSA for gmc.
//
// It lists packages with go/packages the way `go vet` does (from the
// directory's own module, tests included; a directory given by its absolute
// path is loaded from its own module wherever gmc runs), parses and
// type-checks them (check.go), builds SSA with generics instantiated. The standard library is interpreted from its source, loaded
// with the pure-Go build tags; only the packages of the short list stripped
// (the runtime, sync, reflect, testing, the OS boundary, ...) have their
// function bodies removed: the VM models them natively. Before type
// checking, the standard library is pruned to what the program can reach
// (prune.go): unreached functions, types and tables go, unreached methods
// lose their bodies; what pruning leaves is kept across runs (cache.go).
// Invariants: every package of the returned program is
// well typed; Program.Interpreted reports whether a package's function bodies
// are present (a pruned one's reached functions keep theirs); the roots are
// the packages named by the patterns, replaced by their test variants when
// they have tests.
package load

import (
	"errors"
	"fmt"
	"go/ast"
	"go/doc"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"

	"golang.org/x/tools/go/packages"
	"golang.org/x/tools/go/ssa"
	"golang.org/x/tools/go/ssa/ssautil"
)

// stripped lists the standard-library packages whose function bodies are
// removed (the VM models them natively), each with the reason; every other
// GOROOT package is interpreted from its source, loaded with the pure-Go
// build tags (Load's BuildFlags). An entry "p/..." covers p's sub-packages.
// A native of an interpreted package wins over its body (vm's nativeTable),
// so a package leaves this list first and its natives go one by one.
var stripped = map[string]string{
	"runtime":               "the VM is the runtime: goroutines, scheduling, memory, maps, panics (natives_runtime*.go)",
	"runtime/...":           "the runtime's own packages (debug, pprof, trace: natives or runtime internals; runtime/metrics is interpreted, interpretedUnder)",
	"internal/runtime/...":  "the runtime's internals (assembly, memory layout)",
	"internal/cpu":          "cpuid in assembly; its zero feature flags select the generic code of its importers",
	"internal/abi":          "memory layout of the gc toolchain (natives_runtime.go models the few calls)",
	"internal/bytealg":      "assembly without a Go fallback on amd64 (natives_std.go adapters)",
	"sync":                  "controlled semantics: mutexes, WaitGroup, Once, Cond, Map, Pool are scheduling points (natives_sync*.go)",
	"sync/atomic":           "controlled semantics: atomics are scheduling points (natives_atomic.go)",
	"internal/sync":         "sync's HashTrieMap, over atomics and the runtime's hash",
	"reflect":               "reflection over the VM's own types and values (natives_reflect_*.go)",
	"internal/reflectlite":  "reflection over the VM's own types and values (natives_adapt.go)",
	"unique":                "the runtime's weak handles (natives_unique.go)",
	"weak":                  "the runtime's weak pointers",
	"testing":               "the test driver is the VM's (testing.go, entry.go)",
	"internal/synctest":     "bubbles are the VM's scheduler (synctest.go)",
	"internal/godebug":      "GODEBUG is not read: every setting has its default (natives_std.go)",
	"syscall":               "the OS boundary (natives_syscall.go)",
	"internal/syscall/unix": "the OS boundary (natives_syscall.go)",
	"os/signal":             "the OS boundary: no signal comes; Notify registers its channel (natives_signal.go)",
	"os/exec":               "the OS boundary: processes are unsupported",
	"net":                   "the OS boundary: sockets are unsupported",
	"net/http":              "sockets; its init (crypto/tls, crypto/x509, the whole crypto stack) costs every test that imports it ~6 s of CPU and 500 MB (errgroup's TestZeroGroup)",
	"net/http/...":          "servers and clients over sockets (net/http)",
	"net/rpc":               "sockets",
	"net/rpc/...":           "sockets",
	"net/smtp":              "sockets",
	"crypto/rand":           "the deterministic Reader (natives_cryptorand.go)",
}

// interpretedUnder lists the packages under a stripped "p/..." entry that
// are interpreted from their source all the same (with natives for their
// calls into the runtime).
var interpretedUnder = map[string]bool{
	"runtime/metrics": true, // natives_runtime_metrics.go
}

// isStripped reports whether the bodies of the GOROOT package pkg are
// removed (stripped).
func isStripped(pkg string) bool {
	if strings.HasPrefix(pkg, "cmd/") || strings.Contains(pkg, "/testdata/") {
		return false
	}
	if _, ok := stripped[pkg]; ok {
		return true
	}
	if interpretedUnder[pkg] {
		return false
	}
	for p := pkg; ; {
		i := strings.LastIndexByte(p, '/')
		if i < 0 {
			return false
		}
		p = p[:i]
		if _, ok := stripped[p+"/..."]; ok {
			return true
		}
	}
}

// Interpreted reports whether the VM interprets the SSA of the package with
// the given import path (as opposed to modelling it natively): every
// package except the standard-library packages whose bodies were stripped.
func (p *Program) Interpreted(pkgPath string) bool {
	return !p.stripped[pkgPath]
}

// IsStd reports whether pkgPath is a standard-library package's import
// path (not a command-line program's or a test binary's).
func IsStd(pkgPath string) bool {
	first := pkgPath
	if i := strings.IndexByte(pkgPath, '/'); i >= 0 {
		first = pkgPath[:i]
	}
	return !strings.Contains(first, ".") && first != "command-line-arguments" && !strings.HasSuffix(pkgPath, ".test")
}

// StdPackage reports whether pkg is a standard-library package: its
// import path is one (IsStd) and its source is under GOROOT/src, outside a
// testdata directory. The path alone does not say it: a module named
// without a dot ("module racesuite", "module app") has such paths, and
// GOROOT's GoKer kernels live under runtime/testdata.
func StdPackage(pkg *ssa.Package) bool {
	if pkg == nil || !IsStd(pkg.Pkg.Path()) {
		return false
	}
	scope := pkg.Pkg.Scope()
	for _, name := range scope.Names() {
		pos := scope.Lookup(name).Pos()
		if !pos.IsValid() {
			continue
		}
		f := pkg.Prog.Fset.File(pos)
		if f == nil {
			continue
		}
		name := filepath.ToSlash(f.Name())
		return strings.HasPrefix(name, gorootSrc) && !strings.Contains(name[len(gorootSrc):], "/testdata/") &&
			!strings.HasPrefix(name[len(gorootSrc):], "testdata/")
	}
	return false
}

// IsStdPackage is StdPackage, remembered per package (the VM asks at
// every sync.Pool operation).
func (p *Program) IsStdPackage(pkg *ssa.Package) bool {
	if v, ok := p.stdPkgs.Load(pkg); ok {
		return v.(bool)
	}
	std := StdPackage(pkg)
	p.stdPkgs.Store(pkg, std)
	return std
}

// gorootSrc is GOROOT/src/, slash-separated.
var gorootSrc = filepath.ToSlash(filepath.Join(runtime.GOROOT(), "src")) + "/"

// Config says what to load.
type Config struct {
	Dir      string   // directory to load from (its module is used); "" = current
	Patterns []string // package patterns or directories; empty = "."
}

var debugHook func([]*packages.Package)

// Program is a loaded, SSA-built Go program.
type Program struct {
	Fset  *token.FileSet
	SSA   *ssa.Program
	Roots []*ssa.Package // the packages named by the patterns (test variants when present)
	// Pkgs are the go/packages packages of Roots, index for index (syntax and
	// type information, e.g. for go/analysis drivers).
	Pkgs []*packages.Package
	// Module is the module path of the first root ("" outside a module).
	Module string
	// GoVersion is that module's go line ("1.21", "" outside a module):
	// it sets the GODEBUG defaults the program runs with.
	GoVersion string

	stripped map[string]bool // GOROOT packages whose function bodies were removed

	// Embeds are the contents of the //go:embed variables outside GOROOT,
	// keyed "pkgpath.Name" (embed.go).
	Embeds map[string]*Embed

	stdPkgs sync.Map // *ssa.Package -> bool: IsStdPackage's answers

	// Memo lets packages that build on a Program keep derived data with
	// it (for example the VM's initial heap), freed with the Program.
	Memo sync.Map
}

// Error is a load failure for the user: one line naming file:line.
type Error struct{ Msg string }

func (e *Error) Error() string { return e.Msg }

// Load loads, type-checks and builds SSA for the packages of cfg.
func Load(cfg Config) (*Program, error) {
	patterns := cfg.Patterns
	if len(patterns) == 0 {
		patterns = []string{"."}
	}
	dir := cfg.Dir
	if len(patterns) == 1 && isDirPath(patterns[0]) {
		// a directory is loaded from inside, in its own module, so that
		// gmc check DIR works from anywhere (the go tool refuses a
		// directory outside the current module)
		d := patterns[0]
		if !filepath.IsAbs(d) {
			d = filepath.Join(cfg.Dir, d)
		}
		if fi, err := os.Stat(d); err == nil && fi.IsDir() {
			dir, patterns = d, []string{"."}
		}
	}
	p, err := load(dir, patterns, true, cacheDir())
	if err == errCached {
		p, err = load(dir, patterns, true, "")
	}
	if err == errPruned {
		p, err = load(dir, patterns, false, "")
	}
	return p, err
}

// errPruned reports that a pruned package did not type-check: Load loads
// the program again without pruning.
var errPruned = errors.New("a pruned package does not type-check")

// errCached reports that a file of the load cache did not parse, or a
// package built from the cache did not type-check: Load loads the program
// again without the cache.
var errCached = errors.New("a cached file does not parse")

// stdParseMode is how the standard library's files are parsed: without
// comments (only the roots' //gmc: comments are read) and without the
// parser's identifier resolution (go/types does its own): they are most
// of what a test importing net/http loads.
const stdParseMode = parser.AllErrors | parser.SkipObjectResolution

// load is Load of the patterns from dir, pruning the interpreted standard
// library to what the program reaches (prune.go) when prune is set, and
// keeping what the pruning leaves in the load cache in cache (cache.go;
// "" for none).
func load(dir string, patterns []string, prune bool, cache string) (*Program, error) {
	fset := token.NewFileSet()
	var mu sync.Mutex
	strippedPkgs := map[string]bool{}
	var record bool                                               // a cache miss: record what the pruned files cover
	var recorded sync.Map                                         // std file name -> the text its tree was parsed from
	buildFlags := []string{"-tags=purego,math_big_pure_go,noasm"} // the pure-Go fallbacks of assembly-backed packages (noasm: klauspost/compress, minio)
	graph, pkgs, err := stdGraph(dir, patterns, buildFlags)
	if err != nil {
		return nil, &Error{Msg: "gmc: " + oneLine(err.Error())}
	}
	if len(pkgs) == 0 {
		return nil, &Error{Msg: fmt.Sprintf("gmc: no packages match %s", strings.Join(patterns, " "))}
	}
	goroot := filepath.Join(runtime.GOROOT(), "src") + string(filepath.Separator)
	parse := func(fset *token.FileSet, filename string, src []byte) (*ast.File, error) {
		mode := parser.AllErrors | parser.ParseComments
		std := strings.HasPrefix(filename, goroot)
		strip := ""
		if std {
			mode = stdParseMode
			rel := filepath.ToSlash(filename[len(goroot):])
			if i := strings.LastIndexByte(rel, '/'); i >= 0 && (isStripped(rel[:i]) || graph.dead[rel[:i]]) {
				strip = rel[:i]
			}
			if strip != "" && !graph.dead[strip] && !graph.unkept[strip] && keptFile(rel) {
				strip = "" // a pure-Go file of a partly kept package (partkeep.go)
			}
		}
		parseSrc := src
		if strip != "" {
			parseSrc = blankBodies(src, func(key string) bool { return keepBodies[strip+"."+key] })
			if prune && !partlyLive(strip, graph) {
				// its initializer never runs: its tables are not needed
				parseSrc = blankTables(parseSrc)
			}
		}
		f, err := parser.ParseFile(fset, filename, parseSrc, mode)
		if f != nil && strip != "" && hasDotImport(f) {
			// stripBodies keeps such a file whole: parse its bodies
			parseSrc = src
			f, err = parser.ParseFile(fset, filename, src, mode)
		}
		if record && std && f != nil {
			recorded.Store(filename, parseSrc)
		}
		if f != nil && strip != "" {
			stripBodies(f, strip)
			if !partlyLive(strip, graph) {
				mu.Lock()
				strippedPkgs[strip] = true
				mu.Unlock()
			}
		}
		return f, err
	}
	// the files are parsed and pruned (or found in the cache)
	var pre *preparsed
	var key string
	ready := make(chan struct{})
	go func() {
		defer close(ready)
		if !prune {
			return
		}
		var src *sources
		var given map[string]*ast.File
		if cache != "" && pruneDebug == nil {
			src = readSources(graph)
			var ext []string
			if ext, given = externalKey(fset, graph, src, parse); ext != nil {
				if k, ok := cacheKey(graph, buildFlags, src, ext); ok {
					key = k
					if c := lookupCache(cache, key); c != nil {
						pre = cachedPreparse(c, src, given)
						for _, path := range c.stripped {
							strippedPkgs[path] = true
						}
						return
					}
					record = true
				}
			}
		}
		pre = preparse(fset, graph, parse, src, given)
	}()
	<-ready
	checkPackages(fset, pkgs, func(fset *token.FileSet, filename string) (*ast.File, error) {
		if f := pre.take(fset, filename); f != nil {
			return f, nil
		}
		src, err := pre.read(filename)
		if err != nil {
			return nil, err
		}
		return parse(fset, filename, src)
	})
	if pre.cacheFailed() {
		return nil, errCached
	}
	if pre.failed(pkgs) {
		if pre.cached != nil {
			return nil, errCached // pruned again without the cache first
		}
		return nil, errPruned
	}
	if msg := firstError(pkgs); msg != "" {
		return nil, &Error{Msg: msg}
	}
	if record {
		if c := pre.entry(fset, strippedPkgs, &recorded); c != nil {
			storeCache(cache, key, c)
		}
	}
	if debugHook != nil {
		debugHook(pkgs)
	}
	roots := selectRoots(pkgs)
	prog, ssaPkgs := ssautil.AllPackages(roots, ssa.InstantiateGenerics)
	prog.Build()
	p := &Program{Fset: fset, SSA: prog, Pkgs: roots, stripped: strippedPkgs}
	for i, sp := range ssaPkgs {
		if sp == nil {
			return nil, &Error{Msg: fmt.Sprintf("gmc: package %s could not be built", roots[i].PkgPath)}
		}
		p.Roots = append(p.Roots, sp)
	}
	if m := roots[0].Module; m != nil {
		p.Module = m.Path
		p.GoVersion = m.GoVersion
	}
	nameFiles(p)
	p.Embeds = findEmbeds(roots)
	return p, nil
}

// selectRoots keeps, for each package named by the patterns, its test variant
// when it has one, plus external test packages; it drops the generated
// test mains.
func selectRoots(pkgs []*packages.Package) []*packages.Package {
	hasTestVariant := map[string]bool{}
	for _, p := range pkgs {
		if p.ForTest != "" && p.PkgPath == p.ForTest {
			hasTestVariant[p.PkgPath] = true
		}
	}
	var roots []*packages.Package
	for _, p := range pkgs {
		switch {
		case strings.HasSuffix(p.PkgPath, ".test") && p.Name == "main" && p.ForTest == "":
			// generated test main: skip
		case p.ForTest == "" && hasTestVariant[p.PkgPath]:
			// replaced by its test variant
		default:
			roots = append(roots, p)
		}
	}
	sort.SliceStable(roots, func(i, j int) bool { return roots[i].ID < roots[j].ID })
	return roots
}

// firstError returns the first error of a package the user wrote (GOROOT
// packages are stripped and their errors ignored), formatted as one line.
// isDirPath reports whether a pattern names a directory by its path (as
// the go tool reads "./x", "../x" and absolute paths), not by import path.
func isDirPath(p string) bool {
	return filepath.IsAbs(p) || p == "." || p == ".." || strings.HasPrefix(p, "./") || strings.HasPrefix(p, "../")
}

func firstError(pkgs []*packages.Package) string {
	msg := ""
	packages.Visit(pkgs, nil, func(p *packages.Package) {
		if msg != "" || (IsStd(p.PkgPath) && p.Module == nil) {
			return
		}
		for _, e := range p.Errors {
			pos := e.Pos
			if pos == "" || pos == "-" {
				pos = p.PkgPath
			}
			msg = fmt.Sprintf("%s: %s", pos, oneLine(e.Msg))
			return
		}
	})
	return msg
}

func oneLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.Index(s, "stderr: "); i >= 0 {
		s = s[i+len("stderr: "):]
	}
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	return s
}

// stripBodies removes the bodies of non-generic functions (they become
// external functions in SSA) and blanks the imports that are then unused, so
// that the file still type-checks.
// funcKey is "Recv.Name" for a method, "Name" for a function.
func funcKey(fd *ast.FuncDecl) string {
	if fd.Recv == nil || len(fd.Recv.List) == 0 {
		return fd.Name.Name
	}
	t := fd.Recv.List[0].Type
	if s, ok := t.(*ast.StarExpr); ok {
		t = s.X
	}
	if id, ok := t.(*ast.Ident); ok {
		return id.Name + "." + fd.Name.Name
	}
	return fd.Name.Name
}

// keepBodies names the functions of stripped packages that are pure Go
// and interpreted from their source all the same ("pkg.Recv.Name" or
// "pkg.Name").
var keepBodies = map[string]bool{
	"reflect.StructTag.Get":                 true,
	"reflect.StructTag.Lookup":              true,
	"reflect.StructField.IsExported":        true,
	"crypto/rand.Int":                       true, // over the deterministic Reader (vm/natives_cryptorand.go)
	"internal/syscall/unix.HasNonblockFlag": true,
	"syscall.Timespec.Unix":                 true,
	"syscall.Timespec.Nano":                 true,
	"runtime/debug.ReadGCStats":             true, // over readGCStats (vm/natives_runtime_stats.go)
}

func stripBodies(f *ast.File, pkg string) {
	if hasDotImport(f) {
		return // a dot import's uses cannot be told apart: keep the file whole
	}
	for _, d := range f.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && fd.Type.TypeParams == nil && !genericRecv(fd) {
			if keepBodies[pkg+"."+funcKey(fd)] {
				continue
			}
			if fd.Recv == nil && fd.Name.Name == "init" {
				// init must have a body; it keeps its braces' positions so
				// that the file's extent stays valid (go/analysis' inspector)
				fd.Body = &ast.BlockStmt{Lbrace: fd.Body.Lbrace, Rbrace: fd.Body.Rbrace}
			} else {
				fd.Body = nil
			}
		}
	}
	used := map[string]bool{}
	ast.Inspect(f, func(n ast.Node) bool {
		if s, ok := n.(*ast.SelectorExpr); ok {
			if id, ok := s.X.(*ast.Ident); ok {
				used[id.Name] = true
			}
		}
		return true
	})
	for _, im := range f.Imports {
		name := importName(strings.Trim(im.Path.Value, `"`))
		if im.Name != nil {
			name = im.Name.Name
		}
		if name != "_" && name != "." && !used[name] {
			im.Name = ast.NewIdent("_")
		}
	}
}

func hasDotImport(f *ast.File) bool {
	for _, im := range f.Imports {
		if im.Name != nil && im.Name.Name == "." {
			return true
		}
	}
	return false
}

func importName(path string) string {
	parts := strings.Split(path, "/")
	name := parts[len(parts)-1]
	if len(parts) > 1 && len(name) > 1 && name[0] == 'v' && strings.Trim(name[1:], "0123456789") == "" {
		name = parts[len(parts)-2]
	}
	return name
}

func genericRecv(fd *ast.FuncDecl) bool {
	if fd.Recv == nil || len(fd.Recv.List) == 0 {
		return false
	}
	t := fd.Recv.List[0].Type
	if s, ok := t.(*ast.StarExpr); ok {
		t = s.X
	}
	switch t.(type) {
	case *ast.IndexExpr, *ast.IndexListExpr:
		return true
	}
	return false
}

// Func finds a package-level function by name in the roots (test variants
// first). It returns nil when there is none.
func (p *Program) Func(name string) *ssa.Function {
	for _, r := range p.Roots {
		if f := r.Func(name); f != nil {
			return f
		}
	}
	return nil
}

// MainPackage returns the root package named main, or nil.
func (p *Program) MainPackage() *ssa.Package {
	for _, r := range p.Roots {
		if r.Pkg.Name() == "main" && r.Func("main") != nil {
			return r
		}
	}
	return nil
}

// Tests returns the TestXxx and FuzzXxx functions of the roots, sorted by name.
func (p *Program) Tests() []*ssa.Function {
	var out []*ssa.Function
	for _, r := range p.Roots {
		for _, m := range r.Members {
			f, ok := m.(*ssa.Function)
			if !ok || f.Signature.Params().Len() != 1 {
				continue
			}
			if (strings.HasPrefix(f.Name(), "Test") || strings.HasPrefix(f.Name(), "Fuzz")) && isTestingParam(f.Signature.Params().At(0).Type()) {
				out = append(out, f)
			}
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name() < out[j].Name() })
	return out
}

// Example is a testable example of a root package: a func ExampleXxx() of
// a _test.go file with an output comment, whose standard output go test
// compares with the comment's text.
type Example struct {
	Fn        *ssa.Function
	Output    string // the expected output (go/doc's)
	Unordered bool   // "Unordered output:": the lines in any order
}

// Examples returns the testable examples of the roots (go test runs
// those with an output comment, "// Output:" possibly empty), by name.
func (p *Program) Examples() []Example {
	var out []Example
	seen := map[string]bool{}
	for i, r := range p.Roots {
		if i >= len(p.Pkgs) {
			break
		}
		var files []*ast.File
		for _, f := range p.Pkgs[i].Syntax {
			if strings.HasSuffix(p.Fset.Position(f.Package).Filename, "_test.go") {
				files = append(files, f)
			}
		}
		for _, ex := range doc.Examples(files...) {
			if ex.Output == "" && !ex.EmptyOutput {
				continue // compiled, not run
			}
			name := "Example" + ex.Name
			fn := r.Func(name)
			if fn == nil || seen[name] || fn.Signature.Params().Len() != 0 || fn.Signature.Results().Len() != 0 {
				continue
			}
			seen[name] = true
			out = append(out, Example{Fn: fn, Output: ex.Output, Unordered: ex.Unordered})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Fn.Name() < out[j].Fn.Name() })
	return out
}

func isTestingParam(t types.Type) bool {
	s := t.String()
	return s == "*testing.T" || s == "*testing.F"
}

// ErrNoEntry is returned by callers that cannot find an entry function.
var ErrNoEntry = errors.New("no entry")

// UnderTest reports whether a package is under test: a root package (or
// the package an external test package tests) or a package of the main
// module. Its shared loads and stores are scheduling points (vm.SchedShared).
func (p *Program) UnderTest(pkgPath string) bool {
	for _, r := range p.Roots {
		if r.Pkg.Path() == pkgPath || strings.TrimSuffix(r.Pkg.Path(), "_test") == pkgPath {
			return true
		}
	}
	return p.Module != "" && (pkgPath == p.Module || strings.HasPrefix(pkgPath, p.Module+"/"))
}
