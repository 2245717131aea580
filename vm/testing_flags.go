package vm

import (
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// testing's flags. go test's main calls testing.Init after the package
// initializers, which registers the -test.* flags on flag.CommandLine;
// tests read them back (testify's suite: flag.Lookup("test.failfast"),
// a nil *Flag in the VM, where testing is modelled: a false nil
// dereference). The boot goroutine of a test, fuzz target or example
// registers them after the initializers, through package flag's own
// functions (interpreted): each with the value the run's arguments give
// it (the VM's -test.short and -test.v, as testing.Short and
// testing.Verbose report; the others as go test's defaults, the flags
// being parsed before the tests run). A program without package flag
// registers none: nothing could look them up; nor does a program whose
// initializers do not initialize package flag (its CommandLine).

// bootCall is a call the boot goroutine makes before the entry.
type bootCall struct {
	fn   *ssa.Function
	args []Value
}

// testFlagCalls are the registrations of testing's flags for entry e
// (none for a main or a func entry, or without package flag's functions),
// worked out once per entry function (every run of a search starts with
// them).
func (m *Machine) testFlagCalls(e Entry) []bootCall {
	if e.Kind != EntryTest && e.Kind != EntryFuzz && e.Kind != EntryExample || !m.prog.Interpreted("flag") {
		return nil
	}
	if c, ok := m.flagCalls.Load(e.Fn); ok {
		return c.([]bootCall)
	}
	c, _ := m.flagCalls.LoadOrStore(e.Fn, m.makeTestFlagCalls(e))
	return c.([]bootCall)
}

// makeTestFlagCalls is testFlagCalls without the memo.
func (m *Machine) makeTestFlagCalls(e Entry) []bootCall {
	if !m.entryImports(e, "flag") {
		return nil // flag's initializer (CommandLine) has not run
	}
	cf, _ := parseChildFlags(m.opts.Args)
	var calls []bootCall
	add := func(fn string, name string, v Value) {
		f := m.pkgFunc("flag", fn)
		if f == nil || len(f.Blocks) == 0 {
			return
		}
		calls = append(calls, bootCall{fn: f, args: []Value{"test." + name, v, ""}})
	}
	for _, b := range []struct {
		name string
		v    bool
	}{{"short", testShort(m.opts.Args)}, {"v", cf.verbose}, {"failfast", false}, {"benchmem", false},
		{"fullpath", false}, {"paniconexit0", true}} {
		add("Bool", b.name, b.v)
	}
	for _, f := range []struct{ name, v string }{{"run", cf.run}, {"skip", ""}, {"bench", ""}, {"benchtime", "1s"},
		{"cpu", ""}, {"list", cf.list}, {"shuffle", "off"}, {"coverprofile", ""}, {"outputdir", ""},
		{"cpuprofile", ""}, {"memprofile", ""}, {"blockprofile", ""}, {"mutexprofile", ""}, {"trace", ""},
		{"testlogfile", ""}, {"fuzz", ""}, {"fuzzcachedir", ""}} {
		add("String", f.name, f.v)
	}
	add("Uint", "count", intOfKind(types.Uint, 1))
	add("Int", "parallel", 2) // runtime.GOMAXPROCS's
	add("Duration", "timeout", int64(0))
	add("Duration", "fuzztime", int64(0))
	return calls
}

// entryImports reports whether the initializers that run before entry e
// (entryInits) initialize package path: a package of theirs imports it,
// directly or not.
func (m *Machine) entryImports(e Entry, path string) bool {
	seen := map[*types.Package]bool{}
	var visit func(p *types.Package) bool
	visit = func(p *types.Package) bool {
		if p.Path() == path {
			return true
		}
		if seen[p] {
			return false
		}
		seen[p] = true
		for _, q := range p.Imports() {
			if visit(q) {
				return true
			}
		}
		return false
	}
	for _, fn := range m.entryInits(e) {
		if fn.Pkg != nil && visit(fn.Pkg.Pkg) {
			return true
		}
	}
	return false
}
