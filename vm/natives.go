package vm

import (
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/ssa"
)

// nativeFunc is a Go model of a function the VM does not interpret.
type nativeFunc struct {
	name string
	// fn runs the model. It returns ctlNext with the result, ctlBlock after
	// setting the goroutine's wait (the call is re-executed when the
	// goroutine is scheduled again), ctlFrame after pushing frames, or the
	// control of a panic/error.
	fn func(t *thread, args []Value) (Value, ctl)
	// visible natives are scheduling points.
	visible bool
	// local, if set, tells whether a call of a visible native touches no
	// state another goroutine can observe, and so is not a scheduling
	// point (sync.Pool's operations called by the standard library).
	local func(t *thread, args []Value) bool
	// guard, for blocking natives, tells whether the call can proceed now
	// and, if not, the wait to record; it is evaluated when a transition
	// stops before the call so that a goroutine that would block is not
	// offered as a choice.
	guard func(t *thread, args []Value) (bool, waitInfo)
	// blocked, if set, runs when the guard blocks the goroutine (the
	// call's effects of starting to wait: WaitGroup.Wait counts waiters).
	blocked func(t *thread, args []Value)
}

// nativeKey is the name natives are registered under: ssa's
// Function.String(), e.g. "(*sync.Mutex).Lock" or "fmt.Println".
// Initializers of packages that are not interpreted are no-ops, or the
// native registered as "PKG.init".
func (m *Machine) nativeKey(f *ssa.Function) string {
	if f.Name() == "init" || strings.HasPrefix(f.Name(), "init#") {
		if f.Pkg != nil && !m.prog.Interpreted(f.Pkg.Pkg.Path()) {
			if f.Name() == "init" && m.natives[f.String()] != nil {
				return f.String() // a native initializer (natives_os.go)
			}
			return "<noop-init>"
		}
	}
	return f.String()
}

// osArg0 is os.Args[0], the program's name.
const osArg0 = "prog"

// globalInits set package-level variables of packages whose initializers
// are not interpreted.
var globalInits = map[string]func(m *Machine, o *Object){
	"os.Args": func(m *Machine, o *Object) {
		o.setCell(0, m.stringSliceBase(append([]string{osArg0}, m.opts.Args...)))
	},
}

// nativeTable holds the natives of every modelled package; each natives_*.go
// file adds its own in an init function.
var nativeTable = map[string]*nativeFunc{}

// genericNatives model generic functions: each instance gets a native made
// from its type arguments, keyed by the generic function's name.
var genericNatives = map[string]func(m *Machine, targs []types.Type) *nativeFunc{}

func def(name string, fn func(t *thread, args []Value) (Value, ctl)) *nativeFunc {
	nf := &nativeFunc{name: name, fn: fn}
	nativeTable[name] = nf
	return nf
}

// isVisible reports whether this call of nf is a scheduling point.
func (nf *nativeFunc) isVisible(t *thread, args []Value) bool {
	return nf.visible && (nf.local == nil || !nf.local(t, args))
}

// defVisible registers a native that is a scheduling point.
func defVisible(name string, fn func(t *thread, args []Value) (Value, ctl)) *nativeFunc {
	nf := def(name, fn)
	nf.visible = true
	return nf
}

func registerNatives(m *Machine) {
	for k, v := range nativeTable {
		m.natives[k] = v
	}
	m.natives["<noop-init>"] = &nativeFunc{name: "init", fn: func(t *thread, args []Value) (Value, ctl) { return nil, ctlNext }}
}

// stringSliceBase builds a []string in the base heap (used by global initializers).
func (m *Machine) stringSliceBase(ss []string) Slice {
	cells := make([]Value, len(ss))
	for i, s := range ss {
		cells[i] = s
	}
	id := m.base.alloc(&Object{T: m.types.get(types.Typ[types.String]), Cells: cells, shared: true}, 0)
	return Slice{Obj: id, Len: len(ss), Cap: len(ss)}
}

func (m *Machine) byteType() *RType { return m.types.get(types.Typ[types.Byte]) }
func (m *Machine) runeType() *RType { return m.types.get(types.Typ[types.Rune]) }

// fakePkg holds the synthetic types of values the VM creates itself.
var fakeRuntime = types.NewPackage("runtime", "runtime")

var rtErrorType, panicNilErrType types.Type

func init() {
	errSig := types.NewSignatureType(nil, nil, nil, nil, types.NewTuple(types.NewVar(token.NoPos, nil, "", types.Typ[types.String])), false)
	mk := func(name string) types.Type {
		tn := types.NewTypeName(token.NoPos, fakeRuntime, name, nil)
		named := types.NewNamed(tn, types.Typ[types.String], nil)
		recv := types.NewVar(token.NoPos, fakeRuntime, "e", named)
		sig := types.NewSignatureType(recv, nil, nil, nil, errSig.Results(), false)
		named.AddMethod(types.NewFunc(token.NoPos, fakeRuntime, "Error", sig))
		sig2 := types.NewSignatureType(recv, nil, nil, nil, nil, false)
		named.AddMethod(types.NewFunc(token.NoPos, fakeRuntime, "RuntimeError", sig2))
		return named
	}
	rtErrorType = mk("Error")
	panicNilErrType = types.NewPointer(mk("PanicNilError"))
}

func runtimeErrorType() types.Type { return rtErrorType }

func (m *Machine) panicNilType() *RType { return m.rtError }

// runtime errors' methods are native: their value is the message.
func init() {
	def("(runtime.Error).Error", nativeRuntimeErrorError)
	def("(runtime.Error).RuntimeError", nativeRuntimeErrorRuntimeError)
}

// nativeRuntimeErrorError is (runtime.Error).Error.
func nativeRuntimeErrorError(t *thread, args []Value) (Value, ctl) { return args[0], ctlNext }

// nativeRuntimeErrorRuntimeError is (runtime.Error).RuntimeError.
func nativeRuntimeErrorRuntimeError(t *thread, args []Value) (Value, ctl) { return nil, ctlNext }

// --- runtime ---

func init() {
	defVisible("runtime.Gosched", nativeRuntimeGosched)
	// NumGoroutine observes every goroutine's start and end, neither a
	// synchronization: a scheduling point dependent with every transition
	// (a loop waiting for a goroutine to end is not ordered after it).
	defVisible("runtime.NumGoroutine", nativeRuntimeNumGoroutine)
	def("runtime.GOMAXPROCS", nativeRuntimeGOMAXPROCS)
	def("runtime.NumCPU", nativeRuntimeNumCPU)
	def("runtime.KeepAlive", nativeRuntimeKeepAlive)
	def("runtime.LockOSThread", nativeRuntimeLockOSThread)
	def("runtime.UnlockOSThread", nativeRuntimeUnlockOSThread)
	def("runtime.Goexit", nativeRuntimeGoexit)
	def("runtime.Caller", nativeRuntimeCaller)
	def("runtime.GOROOT", nativeRuntimeGOROOT)
	def("runtime.Version", nativeRuntimeVersion)
	def("runtime/debug.SetGCPercent", nativeRuntimeDebugSetGCPercent)
	def("runtime/debug.SetMaxStack", nativeRuntimeDebugSetMaxStack)
	def("runtime/debug.FreeOSMemory", nativeRuntimeDebugFreeOSMemory)
	def("os.Exit", nativeOsExit)
}

// nativeRuntimeGosched is runtime.Gosched.
func nativeRuntimeGosched(t *thread, args []Value) (Value, ctl) {
	t.s.last.Op = "runtime.Gosched"
	t.polled = true
	return nil, ctlNext
}

// nativeRuntimeNumGoroutine is runtime.NumGoroutine.
func nativeRuntimeNumGoroutine(t *thread, args []Value) (Value, ctl) {
	t.s.last.Op = "runtime.NumGoroutine"
	t.touch(AllObjects, false)
	n := 0
	for g := range t.s.gs.all() {
		if g.status != gDead {
			n++
		}
	}
	if t.s.goTestMain() {
		n++ // go test's main goroutine, waiting for the test (State.goID)
	}
	return n, ctlNext
}

// nativeRuntimeGOMAXPROCS is runtime.GOMAXPROCS.
func nativeRuntimeGOMAXPROCS(t *thread, args []Value) (Value, ctl) { return 2, ctlNext }

// nativeRuntimeNumCPU is runtime.NumCPU.
func nativeRuntimeNumCPU(t *thread, args []Value) (Value, ctl) { return 2, ctlNext }

// nativeRuntimeKeepAlive is runtime.KeepAlive.
func nativeRuntimeKeepAlive(t *thread, args []Value) (Value, ctl) { return nil, ctlNext }

// nativeRuntimeLockOSThread is runtime.LockOSThread.
func nativeRuntimeLockOSThread(t *thread, args []Value) (Value, ctl) { return nil, ctlNext }

// nativeRuntimeUnlockOSThread is runtime.UnlockOSThread.
func nativeRuntimeUnlockOSThread(t *thread, args []Value) (Value, ctl) { return nil, ctlNext }

// nativeRuntimeGoexit is runtime.Goexit.
func nativeRuntimeGoexit(t *thread, args []Value) (Value, ctl) {
	fr := t.g.top
	fr.pc++ // Goexit does not return; unwinding starts after the call
	return nil, t.goexit(fr)
}

// nativeRuntimeCaller is runtime.Caller: the skip-th frame of the stack
// runtime.Callers shows (goroutineStack), past the goroutine's last frame
// the runtime's (testing.tRunner below a test, runtime.main below
// main.main, runtime.goexit).
func nativeRuntimeCaller(t *thread, args []Value) (Value, ctl) {
	skip := toInt(args[0])
	if skip < 0 {
		skip = 0
	}
	// the stack as runtime.Callers sees it (goroutineStack): while a
	// deferred call of a panic runs, runtime.gopanic and the frames the
	// panic left are above the function running its defers, recovered or
	// not, as in Go (k8s.io/apimachinery's HandleCrash logs the line that
	// called the function that panicked, counting those frames)
	st := t.s.callersStack(t.g)
	if skip >= len(st) {
		return Tuple{uintptr(0), "", 0, false}, ctlNext
	}
	sp := st[skip]
	if sp.rf > 0 {
		pc := runtimePC(sp.rf)
		fr, _ := t.m.decodePC(pc)
		return Tuple{pc, fr.file, fr.line, true}, ctlNext
	}
	p := t.m.prog.Fset.Position(sp.l.Pos())
	// the PC of the call, as runtime.Callers gives it: FuncForPC
	// names its function (testify's mock.Called finds the method
	// called that way)
	return Tuple{t.m.encodePC(sp.l), p.Filename, p.Line, true}, ctlNext
}

// nativeRuntimeGOROOT is runtime.GOROOT.
func nativeRuntimeGOROOT(t *thread, args []Value) (Value, ctl) { return "/usr/local/go", ctlNext }

// nativeRuntimeVersion is runtime.Version.
func nativeRuntimeVersion(t *thread, args []Value) (Value, ctl) { return "go1.26", ctlNext }

// nativeRuntimeDebugSetGCPercent is runtime/debug.SetGCPercent.
func nativeRuntimeDebugSetGCPercent(t *thread, args []Value) (Value, ctl) { return 100, ctlNext }

// nativeRuntimeDebugSetMaxStack is runtime/debug.SetMaxStack.
func nativeRuntimeDebugSetMaxStack(t *thread, args []Value) (Value, ctl) { return args[0], ctlNext }

// nativeRuntimeDebugFreeOSMemory is runtime/debug.FreeOSMemory.
func nativeRuntimeDebugFreeOSMemory(t *thread, args []Value) (Value, ctl) { return nil, ctlNext }

// nativeOsExit is os.Exit.
func nativeOsExit(t *thread, args []Value) (Value, ctl) {
	code := toInt(args[0])
	if e := t.m.testFailure(t.s); e != nil && code != 0 { // TestMain's os.Exit(m.Run())
		t.s.fail(e)
		return nil, ctlStop
	}
	if code != 0 {
		t.s.fail(&Error{Kind: KindFatal, Msg: "exit status " + itoa(code), Pos: t.posOf(t.g.top), Loc: t.locOf(t.g.top)})
	} else {
		t.s.exited = true
		t.m.opts.Ends.record(t.s) // (a TestMain's os.Exit(m.Run()))
	}
	return nil, ctlStop
}
