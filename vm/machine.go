package vm

import (
	"fmt"
	"go/token"
	"go/types"
	"go/version"
	"os"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"unsafe"

	"golang.org/x/tools/go/ssa"

	"github.com/gmc-go/gmc/vm/load"
	"github.com/gmc-go/gmc/vm/loc"
)

// SchedMode selects the scheduling points (DESIGN §2).
type SchedMode uint8

const (
	// SchedShared: synchronization operations and loads/stores of objects
	// reachable from more than one goroutine in the module under test.
	SchedShared SchedMode = iota
	// SchedSync: synchronization operations only.
	SchedSync
)

// Checks selects which conditions are errors.
type Checks struct {
	Leak bool // goroutines blocked forever when the entry returns
	Race bool // data races (happens-before)
}

// Options configure a Machine.
type Options struct {
	Sched  SchedMode
	Checks Checks
	Args   []string // os.Args[1:]
	Env    map[string]string
	// OSInputs are values recorded from the operating system by an earlier
	// run (a trace's): the environment, os.Executable, os.Getwd,
	// os.Hostname. The machine gives the program these instead of the
	// host's (osinputs.go).
	OSInputs *OSInputs
	// Breakpoints are extra scheduling points: a goroutine stops before
	// executing one of these instructions (the guided search makes the
	// locations of its abstract traces breakpoints so that it can observe
	// and interleave them).
	Breakpoints []loc.Loc
	// Unreachable are locations no execution may reach: a goroutine about
	// to execute one stops the run with a KindUnreachable error (a
	// //gmc:unreachable comment; gmc confirm's reachability warnings).
	Unreachable []loc.Loc
	// Quiet, when set, picks errors that end the run as an exit instead
	// of an error state (gmc confirm: an error other than the one a
	// warning predicts ends its execution, as the crash would, and the
	// search goes on with the other executions). It is not asked about
	// races (a race does not end a Go program: see RaceAt), nor about
	// unsupported features and internal errors.
	Quiet func(*Error) bool
	// Invisible, when set, picks memory-access instructions of the module
	// under test whose loads and stores are not scheduling points even
	// under SchedShared (gmc confirm's warning-specific reduction: accesses
	// to memory no answer depends on, slice.Relevance). The race detector
	// still sees them; only the interleavings they would add are not
	// explored. It is asked once per instruction, when its function is
	// compiled.
	Invisible func(ssa.Instruction) bool
	// Payload, when set, abstracts the integer results of chosen
	// instructions to values that only move (payload.go): states that
	// differ in them alone are one state. A use of one is recorded in it
	// as a violation, which voids the search (gmc confirm).
	Payload *Payload
	// ReducedFor records the targets Invisible was computed for (traces
	// keep them so that a replay computes the same reduction).
	ReducedFor []loc.Loc
	// RaceAt, when set, restricts the races reported to those with an
	// access on the line of one of these locations; the others are not
	// errors (gmc confirm of a race warning).
	RaceAt []loc.Loc
	// TimerChoice (gmc's --timing any) lets pending timers fire at any
	// scheduling point, not only when every goroutine is blocked or
	// spinning (see time.go): a state with a pending timer and a goroutine
	// that can run also offers a ChooseTimer choice. A timer may then fire
	// long before its duration has passed in any real run (a one-second
	// watchdog while other goroutines have microseconds of work left), so
	// its findings are timing-dependent failures at best and are reported
	// as found under this model (Timing "any").
	TimerChoice bool
	// TimerChoiceDepth offers the ChooseTimer choice of TimerChoice in the
	// states of depth below it only (the run's first TimerChoiceDepth
	// transitions), and the default model after: a race's flip sets up
	// its flipped order in those transitions, holding one goroutine
	// before its access while the clock advances (a real goroutine can
	// be delayed that long), then searches on under virtual time
	// (guide/flip.go). Traces record it.
	TimerChoiceDepth int
	// StepTime makes time pass as the program runs (gmc's --step-time):
	// every transition advances the clock by StepTime ns and fires the
	// timers then due (as well as the synctest rule: when everything is
	// blocked or spins the clock jumps to the next timer). A 1ns AfterFunc
	// fires within a busy loop, a 100ms sleep lasts 100ms/StepTime
	// transitions of the other goroutines. The clock is part of the
	// state, so states of different clocks no longer merge.
	StepTime int64
	// EntryGrace bounds how long a run goes on after the entry function
	// returns: with n > 0 it ends n transitions later even if goroutines
	// still run, as a Go process ends soon after main returns. The leaks
	// are then the goroutines blocked at that moment that nothing still
	// running can reach (what Go's goroutine leak profile reports). With 0
	// a run goes on until every goroutine has ended or blocked.
	EntryGrace int
	// Symbolic makes the integer, bool, byte and rune parameters of a
	// FuzzXxx entry's fuzz function symbolic inputs (see symbolic.go);
	// without it they take their first f.Add seed.
	Symbolic bool
	// Inputs fixes fuzz parameters by name (see InputName) to concrete
	// values, as State.Inputs reports them: a recorded counterexample
	// replays with them and no solver.
	Inputs map[string]any
	// RecordSync records in each Step the synchronizations it performed
	// (Step.Sync): for reports such as a counterexample's timeline; off
	// during searches.
	RecordSync bool
	// Ends, when set, tallies how the executions of a test entry ended:
	// how many returned and how many of those skipped (testing_skip.go).
	// The machines of one check share it (guide.Prepare sets one).
	Ends *Ends
	// Sanity checks the VM's invariants after every transition and panics
	// with a *SanityError when one breaks (sanity.go): for tests. The
	// environment variable GMC_VM_SANITY=1 turns it on for every machine.
	Sanity bool
}

// The time models a run can use (Options.Timing; traces record them).
const (
	// TimingSynctest: virtual time as testing/synctest runs it, the
	// default (time.go).
	TimingSynctest = "synctest"
	// TimingStep: real time, every transition takes Options.StepTime.
	TimingStep = "step"
	// TimingAny: any pending timer may fire at any scheduling point
	// (Options.TimerChoice).
	TimingAny = "any"
)

// Timing names the time model of o: TimingAny with TimerChoice, else
// TimingStep with a StepTime, else TimingSynctest.
func (o Options) Timing() string {
	switch {
	case o.TimerChoice:
		return TimingAny
	case o.StepTime > 0:
		return TimingStep
	}
	return TimingSynctest
}

// Machine is a loaded program ready to run: compiled functions, types,
// natives and the initial heap. It is shared by all states derived from
// it and safe for concurrent use by several searches.
type Machine struct {
	prog  *load.Program
	opts  Options
	types *typeRegistry
	fnMu  sync.Mutex
	funcs map[*ssa.Function]*function
	// fieldOpen: whether no channel stored in the field is ever closed
	// through it (byvalue.go; under fnMu)
	fieldOpen map[*types.Var]bool
	// blockPos: each instruction's index in its block, for the blocks
	// byvalue.go needed it for (under fnMu)
	blockPos map[*ssa.BasicBlock]map[ssa.Instruction]int
	natives  map[string]*nativeFunc
	// typeByName caches lookupType: "pkg.Name" to its *RType (nil: no
	// such type); natives ask for reflect's and sync's types at every call
	typeByName sync.Map
	globals    map[*ssa.Global]Pointer
	base       heap
	rtError    *RType // dynamic type of runtime error values
	// panicNilValue: panic(nil) panics with nil, as before Go 1.21 (the
	// main module's go line is older: GODEBUG panicnil=1 by default)
	panicNilValue bool
	// godebugOld: the GODEBUG settings whose default the main module's
	// older go line keeps (natives_std.go)
	godebugOld  map[string]string
	fvMu        sync.Mutex
	fvals       map[*ssa.Function]*Closure
	strs        strRegions // the addresses of strings' bytes (unsafestr.go)
	selects     sync.Map   // *ssa.Select -> *selectInfo, *ssa.Call of reflect.Select -> *reflectSelectSite
	zerobase    ObjID      // the address of every zero-size variable
	breakpoints map[loc.Loc]bool
	unreachable map[loc.Loc]bool
	raceAt      map[lineKey]bool
	// hashRoots are the global objects a state hash starts from: those of
	// interpreted packages that the program can change after
	// initialization (immutable.go; the globals of natively modelled
	// packages are only read by natives, after initialization)
	hashRoots  []ObjID
	allGlobals []ObjID  // every global object (roots of the collector)
	fnIDs      sync.Map // *ssa.Function -> int: function identity in state hashes
	boundIDs   sync.Map // boundKey -> int: the identity of a method's bound wrappers
	fnNext     atomic.Int64
	fnCache    *fnIDCache // the last ids fnID returned, by function
	cryptoRand ObjID      // the counter of crypto/rand's bytes (natives_cryptorand.go)
	linkRand   ObjID      // the counter of the runtime's random numbers pulled by linkname (natives_linkname.go)
	uniqueTab  ObjID      // unique.Make's interning table (natives_unique.go)
	finTab     ObjID      // the finalizers and cleanups registered (natives_finalizer.go)
	osIn       *osInputs  // the values read from the operating system (osinputs.go)
	namedTypes sync.Map   // "pkg.Name" -> *RType (namedType)
	timeOnce   sync.Once
	timeType   *RType // time.Time (nil if the program has no package time)
	// env0 is the environment of every run's start (nil: the host's): a
	// re-executed test binary's (exec_child.go)
	env0 *envOverlay
	// the outcomes of the test binary re-executed (exec_self.go): the
	// index of each arguments and environment's, the outcome and why
	// there is none
	execMu    sync.Mutex
	execIndex map[string]int
	execRuns  []*execResult
	execWhy   []string
	execDepth int      // 1 for a child's machine, 2 for its child's, …
	flagCalls sync.Map // entry function -> []bootCall (testing_flags.go)
	// allocReads: whether a function reads an allocation count of a
	// runtime.MemStats (natives_runtime_stats.go)
	allocReads sync.Map // *ssa.Function -> bool
}

// New prepares a machine for a loaded program.
func New(p *load.Program, opts Options) *Machine {
	if os.Getenv("GMC_VM_SANITY") != "" {
		opts.Sanity = true // a whole test suite under the sanity pass
	}
	m := &Machine{
		prog:    p,
		fnCache: new(fnIDCache),
		opts:    opts,
		types:   newTypeRegistry(p.SSA),
		funcs:   map[*ssa.Function]*function{},
		natives: map[string]*nativeFunc{},
		globals: map[*ssa.Global]Pointer{},
		fvals:   map[*ssa.Function]*Closure{},
		osIn:    newOSInputs(opts.OSInputs),
	}
	m.types.machine = m
	if len(opts.Breakpoints) > 0 {
		m.breakpoints = map[loc.Loc]bool{}
		for _, l := range opts.Breakpoints {
			m.breakpoints[l] = true
		}
	}
	if len(opts.Unreachable) > 0 {
		m.unreachable = map[loc.Loc]bool{}
		for _, l := range opts.Unreachable {
			m.unreachable[l] = true
		}
	}
	if len(opts.RaceAt) > 0 {
		m.raceAt = map[lineKey]bool{}
		for _, l := range opts.RaceAt {
			m.raceAt[m.lineOf(l)] = true
		}
	}
	registerNatives(m)
	m.panicNilValue = p.GoVersion != "" && version.Compare("go"+p.GoVersion, "go1.21") < 0
	if p.GoVersion != "" && version.Compare("go"+p.GoVersion, "go1.24") < 0 {
		// math/rand.Seed seeds the global generator (GODEBUG
		// randseednop=0 by default before Go 1.24)
		m.godebugOld = map[string]string{"randseednop": "0"}
	}
	key := imageKey{args: strings.Join(opts.Args, "\x00")}
	if im, ok := p.Memo.Load(key); ok {
		im.(*image).install(m)
		return m
	}
	m.rtError = m.types.get(runtimeErrorType())
	m.zerobase = m.base.alloc(&Object{shared: true}, 0)
	m.allocGlobals()
	if usesLinkRand(p.SSA.AllPackages()) || usesRandPackage(p.SSA) {
		m.allocLinkRand()
	}
	if p.SSA.ImportedPackage("unique") != nil {
		m.allocUniqueTab()
	}
	m.allocFinTab() // natives_finalizer.go
	im, _ := p.Memo.LoadOrStore(key, imageOf(m))
	im.(*image).install(m)
	return m
}

// image is what the machines of one program (and arguments) share: the
// type registry (RTypes are compared by identity) and the initial heap of
// globals, which is never written in place (its objects have epoch 0).
type image struct {
	types                 *typeRegistry
	base                  heap
	globals               map[*ssa.Global]Pointer
	hashRoots, allGlobals []ObjID
	zerobase              ObjID
	cryptoRand, linkRand  ObjID
	uniqueTab, finTab     ObjID
	rtError               *RType
}

// imageKey keys a machine image in load.Program.Memo.
type imageKey struct{ args string }

func imageOf(m *Machine) *image {
	return &image{types: m.types, base: m.base, globals: m.globals, hashRoots: m.hashRoots, allGlobals: m.allGlobals,
		zerobase: m.zerobase, cryptoRand: m.cryptoRand, linkRand: m.linkRand, uniqueTab: m.uniqueTab, finTab: m.finTab, rtError: m.rtError}
}

func (im *image) install(m *Machine) {
	m.types, m.base, m.globals, m.hashRoots, m.allGlobals = im.types, im.base.clone(), im.globals, im.hashRoots, im.allGlobals
	m.zerobase, m.cryptoRand, m.linkRand, m.rtError = im.zerobase, im.cryptoRand, im.linkRand, im.rtError
	m.uniqueTab, m.finTab = im.uniqueTab, im.finTab
}

// fnID returns a number identifying f within this machine. The hash of
// every state with a closure in a register or a deferred call asks it (a
// sync.Map's lookup was ~2 % of a stateful DFS): a direct-mapped cache of
// the last ids answers first.
func (m *Machine) fnID(f *ssa.Function) int64 {
	var slot *atomic.Pointer[fnIDEntry]
	if m.fnCache != nil { // (made by New)
		slot = &m.fnCache[(uint64(uintptr(unsafe.Pointer(f)))*0x9e3779b97f4a7c15)>>(64-fnCacheBits)]
		if e := slot.Load(); e != nil && e.f == f {
			return e.id
		}
	}
	v, ok := m.fnIDs.Load(f)
	if !ok {
		id := m.fnNext.Add(1)
		if k, ok := boundKeyOf(f); ok {
			b, _ := m.boundIDs.LoadOrStore(k, id)
			id = b.(int64)
		}
		v, _ = m.fnIDs.LoadOrStore(f, id)
	}
	id := v.(int64)
	if slot != nil {
		slot.Store(&fnIDEntry{f: f, id: id})
	}
	return id
}

// boundKey names the method a bound method wrapper calls: go/ssa makes a
// wrapper for every method value expression (t.meth), gc one per method
// (its T.meth-fm), so that reflect's Pointer of two method values of one
// method is the same code pointer (asaskevich/EventBus's Unsubscribe finds
// a handler so); the wrappers of a method share its identity (fnID).
type boundKey struct {
	method *types.Func
	targs  string
}

func boundKeyOf(f *ssa.Function) (boundKey, bool) {
	obj, ok := f.Object().(*types.Func)
	if !ok || !strings.HasPrefix(f.Synthetic, "bound method wrapper") {
		return boundKey{}, false
	}
	var targs strings.Builder
	for _, t := range f.TypeArgs() {
		targs.WriteString(types.TypeString(t, nil))
		targs.WriteByte(';')
	}
	return boundKey{obj, targs.String()}, true
}

// fnCacheBits: fnID's cache holds 1<<fnCacheBits functions.
const fnCacheBits = 8

// fnIDCache is fnID's cache (entries are replaced whole, atomically).
type fnIDCache [1 << fnCacheBits]atomic.Pointer[fnIDEntry]

type fnIDEntry struct {
	f  *ssa.Function
	id int64
}

// Program returns the loaded program.
func (m *Machine) Program() *load.Program { return m.prog }

// Options returns the machine's options.
// Options returns the machine's options, with the values its runs read
// from the operating system so far as OSInputs (a machine made from them
// gives its runs the same values).
func (m *Machine) Options() Options {
	o := m.opts
	if in := m.RecordedOS(); in != nil {
		o.OSInputs = in
	}
	return o
}

func (m *Machine) underTest(pkgPath string) bool { return m.prog.UnderTest(pkgPath) }

// allocGlobals gives every package-level variable an object in the base
// heap, in a deterministic order.
func (m *Machine) allocGlobals() {
	var gs []*ssa.Global
	for _, p := range m.prog.SSA.AllPackages() {
		for _, mem := range p.Members {
			if g, ok := mem.(*ssa.Global); ok {
				gs = append(gs, g)
			}
		}
	}
	sort.Slice(gs, func(i, j int) bool {
		pi, pj := gs[i].Pkg.Pkg.Path(), gs[j].Pkg.Pkg.Path()
		if pi != pj {
			return pi < pj
		}
		return gs[i].Name() < gs[j].Name()
	})
	var cands []*ssa.Global
	for _, g := range gs {
		if m.prog.Interpreted(g.Pkg.Pkg.Path()) {
			cands = append(cands, g)
		}
	}
	immutable := immutableGlobals(m.prog.SSA, m.natives, cands)
	for _, g := range gs {
		rt := m.types.get(g.Type().(*types.Pointer).Elem())
		if rt.Size == 0 {
			m.globals[g] = Pointer{Obj: m.zerobase}
			continue
		}
		o := &Object{T: rt, shared: true}
		if rt.Size <= maxObjectCells && !cgoVar(g) {
			o.Cells = cellsOf(rt) // larger globals and C variables have no cells: using them stops the run (cgo.go)
		}
		m.initEmbed(g, o)
		id := m.base.alloc(o, 0)
		m.globals[g] = Pointer{Obj: id}
		m.allGlobals = append(m.allGlobals, id)
		if m.prog.Interpreted(g.Pkg.Pkg.Path()) && !immutable[g] {
			m.hashRoots = append(m.hashRoots, id)
		}
	}
	for _, g := range gs {
		if init := globalInits[g.Pkg.Pkg.Path()+"."+g.Name()]; init != nil {
			if p := m.globals[g]; p.Obj != m.zerobase {
				init(m, m.base.get(p.Obj))
			}
		}
	}
}

// cellsOf returns fresh zero cells for a value of type rt.
func cellsOf(rt *RType) []Value {
	if rt.Agg {
		return append([]Value(nil), rt.Zero().([]Value)...)
	}
	return []Value{rt.Zero()}
}

func (m *Machine) globalPtr(g *ssa.Global) Value {
	if p, ok := m.globals[g]; ok {
		return p
	}
	panic("gmc: global without object: " + g.String())
}

// Start returns the initial state of a run of entry: goroutine 1 about to
// run the package initializers and then the entry.
func (m *Machine) Start(e Entry) *State {
	s := &State{m: m, epoch: epochs.Add(1), heap: m.base.clone(), nextG: 2, entry: e.Kind, env: m.env0}
	if m.opts.Checks.Race {
		s.race = newRaceState()
	}
	s.data = m.startData(e) // symbolic inputs: nil unless Options.Symbolic and a fuzz entry
	g := &goroutine{id: 1, epoch: s.epoch, entry: true, origin: &gOrigin{start: "main.main"}}
	s.gs = newGList(s.epoch, []*goroutine{g})
	boot := &frame{epoch: s.epoch, result: -1}
	var calls []bootCall
	for _, fn := range m.entryInits(e) {
		calls = append(calls, bootCall{fn: fn})
	}
	calls = append(calls, m.testFlagCalls(e)...) // (testing_flags.go)
	// The boot frame runs when first scheduled and whenever a callee returns
	// into it; its pc counts the stages: initializers (and testing's
	// flags), entry, exit.
	boot.cont = func(t *thread, _ Value) ctl {
		b := t.g.top
		b.pc++
		if i := int(b.pc) - 1; i < len(calls) {
			return t.callFunc(b, m.compile(calls[i].fn), nil, calls[i].args, -1, nil)
		}
		if int(b.pc) == len(calls)+1 {
			// an example's output is what it prints itself: go test
			// runs the initializers before it captures stdout, so the
			// chunk count here (kept in the boot frame) marks its start
			b.rets = t.s.outputChunks()
			return m.callEntry(t, e, b)
		}
		if e.Kind == EntryExample && int(b.pc) == len(calls)+2 {
			if err := exampleFailure(e, t.s.outputSince(b.rets.(int), 1)); err != nil { // example.go
				t.s.fail(err)
				return ctlStop
			}
		}
		t.g.top = nil
		return t.goroutineExit()
	}
	g.top = boot
	g.status = gRunnable
	s.sealed = true
	return s
}

// entryInits are the package initializers that run before entry e: its
// package's, and for a test or fuzz target of a package that also has an
// external test package (p_test importing p), that package's too — go
// test links both into one binary, so a TestMain or a variable of p_test
// (and the packages it imports) is initialized whichever of the two holds
// the test. An initializer that already ran (p's, called again by
// p_test's) returns at once.
func (m *Machine) entryInits(e Entry) []*ssa.Function {
	if e.Fn.Pkg == nil {
		return nil
	}
	var inits []*ssa.Function
	if e.Kind == EntryTest || e.Kind == EntryFuzz || e.Kind == EntryExample {
		// context, which the stripped testing imports and t.Context's
		// native calls, is initialized first, as testing's import
		// (its Canceled error is made by its initializer)
		if f := m.pkgFunc("context", "init"); f != nil && m.prog.Interpreted("context") {
			inits = append(inits, f)
		}
		// and fmt, which testing imports and t.Log's native calls: run
		// there, on the first goroutine that logs, its init guard was a
		// race between two parallel subtests that log
		if f := m.pkgFunc("fmt", "init"); f != nil && m.prog.Interpreted("fmt") {
			inits = append(inits, f)
		}
	}
	if f := e.Fn.Pkg.Func("init"); f != nil {
		inits = append(inits, f)
	}
	if e.Kind != EntryTest && e.Kind != EntryFuzz && e.Kind != EntryExample {
		return inits
	}
	self := e.Fn.Pkg.Pkg
	for _, p := range m.prog.SSA.AllPackages() {
		if p == e.Fn.Pkg || p.Pkg.Path() != strings.TrimSuffix(self.Path(), "_test")+"_test" {
			continue
		}
		if f := p.Func("init"); f != nil {
			inits = append(inits, f)
		}
	}
	return inits
}

// position formats a location as file.go:line:col (base name).
func (m *Machine) position(l loc.Loc) string {
	if l.Fn == nil {
		return "?"
	}
	return l.Position(m.prog.Fset)
}

// shortPosition formats a location as file.go:line.
func (m *Machine) shortPosition(l loc.Loc) string {
	p := m.prog.Fset.Position(l.Pos())
	if !p.IsValid() {
		return "?"
	}
	return fmt.Sprintf("%s:%d", loc.ShortName(m.prog.Fset, p.Filename), p.Line)
}

// Position is the exported form of position for reports.
func (m *Machine) Position(l loc.Loc) string { return m.position(l) }

// Fset returns the file set of the loaded program.
func (m *Machine) Fset() *token.FileSet { return m.prog.Fset }

func (m *Machine) addrString(v Value) string {
	switch x := v.(type) {
	case Pointer:
		return fmt.Sprintf("0xc%09x", uint64(x.Obj)<<8|uint64(x.Off))
	}
	return fmt.Sprintf("%v", v)
}

func itoa(n int) string { return fmt.Sprint(n) }

// lineKey is a source line.
type lineKey struct {
	file string
	line int
}

func (m *Machine) lineOf(l loc.Loc) lineKey {
	if l.Fn == nil {
		return lineKey{}
	}
	p := m.prog.Fset.Position(l.Pos())
	return lineKey{p.Filename, p.Line}
}
