package vm

import (
	"fmt"
	"go/types"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/tools/go/ssa"
)

// testState is the outcome of a test entry (immutable; replaced on change).
type testState struct {
	name   string
	failed bool
	log    []string // "file.go:12: message" lines of t.Error/t.Fatal/t.Log
	// skip: the entry's T called SkipNow (testing_skip.go)
	skip bool
	// entryT is the object of the *testing.T (*testing.F) the entry's
	// test runs with
	entryT ObjID
	fuzz   *fuzzState
	// run is the test a TestMain's m.Run runs (nil without TestMain, or
	// once it ran)
	run *ssa.Function
	// mRun is the test m.Run is running or ran (callersStack)
	mRun *ssa.Function
	// subNames counts the subtest names given so far (testing_names.go)
	subNames map[string]int
	// tRunner: the test runs as go test runs it without TestMain, on a
	// goroutine of its own while go test's main goroutine waits in
	// testing.(*T).Run; the program sees goroutine ids as go test's
	// (State.goID) and that main goroutine in runtime.Stack and
	// runtime.NumGoroutine.
	tRunner bool
	// helpers are the functions that called t.Helper
	helpers []*ssa.Function
}

type fuzzState struct {
	seeds [][]Value
}

// callEntry pushes the entry function above the boot frame b.
func (m *Machine) callEntry(t *thread, e Entry, b *frame) ctl {
	switch e.Kind {
	case EntryTest, EntryFuzz:
		t.s.test = &testState{name: e.Fn.Name()}
		if tm := m.testMain(e.Fn); tm != nil {
			// go test calls TestMain(m), whose m.Run runs the test
			t.s.test.run = e.Fn
			mt := tm.Signature.Params().At(0).Type().(*types.Pointer)
			mp := t.alloc(m.types.get(mt.Elem()))
			t.g.setStart("main.main")
			return t.callFunc(b, m.compile(tm), nil, []Value{mp}, -1, nil)
		}
		pt := e.Fn.Signature.Params().At(0).Type().(*types.Pointer)
		tp := t.alloc(m.types.get(pt.Elem()))
		t.share(tp)
		t.s.test.entryT = tp.Obj
		t.g.setStart("testing.tRunner")
		t.s.test.tRunner = true
		return t.runTest(b, m.funcValue(e.Fn), tp, func(*thread) Value { return nil })
	}
	t.g.setStart(runtimeFuncName(e.Fn))
	if e.Kind == EntryFunc {
		t.g.setStart("main.main")
	}
	return t.callFunc(b, m.compile(e.Fn), nil, nil, -1, nil)
}

// testMain returns the TestMain(*testing.M) of the test's package or of
// its external test package, or nil.
func (m *Machine) testMain(test *ssa.Function) *ssa.Function {
	if test.Pkg == nil {
		return nil
	}
	path := strings.TrimSuffix(test.Pkg.Pkg.Path(), "_test")
	for _, p := range m.prog.SSA.AllPackages() {
		if pp := p.Pkg.Path(); pp != path && pp != path+"_test" {
			continue
		}
		f := p.Func("TestMain")
		if f == nil || f.Signature.Params().Len() != 1 {
			continue
		}
		if pt, ok := f.Signature.Params().At(0).Type().(*types.Pointer); ok && pt.Elem().String() == "testing.M" {
			return f
		}
	}
	return nil
}

// testFailure returns the error of a failed test entry, or nil.
func (m *Machine) testFailure(s *State) *Error {
	ts := s.test
	if ts == nil || !ts.failed {
		return nil
	}
	var b strings.Builder
	fmt.Fprintf(&b, "--- FAIL: %s", ts.name)
	for _, l := range ts.log {
		b.WriteString("\n    " + l)
	}
	e := &Error{Kind: KindAssert, Msg: b.String()}
	if len(ts.log) > 0 {
		e.Pos = strings.SplitN(ts.log[len(ts.log)-1], ": ", 2)[0]
	}
	return e
}

func (t *thread) testLog(msg string, fail bool) { t.testLogAt(t.callerPos(), msg, fail) }

// testLogf is t.Log, t.Logf, t.Error, t.Errorf, t.Fatal, t.Fatalf, t.Skip
// and t.Skipf: the message is made by fmt.Sprintln (trailing newline
// removed) or fmt.Sprintf, run from source above a continuation that logs
// it (so String and Error methods of the operands run as Go code: they may
// block, race or panic like any other call); fail marks the test failed,
// now ends it with runtime.Goexit.
func (t *thread) testLogf(args []Value, fail, now, formatted bool) (Value, ctl) {
	// the program's own T (testing_mock.go): the message is made all the
	// same (its operands' String methods run) and kept nowhere; Error and
	// Errorf mark that T failed
	mockT, mock := t.mockTest(args[0])
	mock = mock && !now
	pos := t.callerPos()
	name := "Sprintln"
	if formatted {
		name = "Sprintf"
	}
	fn, initFn := t.m.pkgFunc("fmt", name), t.m.pkgFunc("fmt", "init")
	if fn == nil || initFn == nil || len(args) < 2 {
		return nil, t.unsupported(t.g.top, "testing's log without package fmt")
	}
	// fmt's initializer first (its printer pool): testing's own
	// initializer is stripped, so a test package that imports only
	// testing has not run it; entryInits runs it before the entry (as
	// testing's import), so this call, for a program that did not (a
	// main's T of its own), returns at once (ssa's init guard)
	return nil, t.callCont(t.g.top, t.m.funcValue(initFn), nil, func(t *thread, res Value) ctl {
		self := t.own(t.g.top)
		t.g.top = self
		if self.pc == 0 {
			self.pc = 1
			return t.callAbove(self, t.m.funcValue(fn), args[1:])
		}
		msg, _ := res.(string)
		if !formatted {
			msg = strings.TrimSuffix(msg, "\n")
		}
		if mock {
			if fail {
				t.mockFail(mockT)
			}
			return t.ret(self, nil)
		}
		if fail {
			if c := t.failAfterDone(ptrArg(args[0])); c != ctlNext {
				return c
			}
		}
		if fail || msg != "" || !now {
			t.testLogAt(pos, msg, fail)
		}
		if now && !fail { // t.Skip, t.Skipf (testing_skip.go)
			t.testMarkSkipped(args[0])
		}
		if now {
			return t.goexit(self)
		}
		return t.ret(self, nil)
	})
}

// testLogAt adds msg, logged at pos, to the test's log.
func (t *thread) testLogAt(pos, msg string, fail bool) {
	old := t.s.test
	if msg == "" && fail && old != nil && old.failed {
		return // FailNow of a failed test (synctest.Test's): go test logs nothing
	}
	ts := &testState{name: "test"}
	if old != nil {
		*ts = *old
	}
	ts.log = append(append([]string(nil), ts.log...), pos+": "+msg)
	if fail {
		ts.failed = true
	}
	t.s.test = ts
}

// callerPos is the file:line of the user code that called the native, as
// go test reports a log's line: past the functions that called t.Helper,
// or at the outermost function when every one did.
func (t *thread) callerPos() string {
	pos := "?"
	for f := t.g.top; f != nil; f = f.caller {
		if f.fn != nil && !hiddenFunc(f.fn.ssa) && f.block != nil {
			l := t.locOf(f)
			if l.Index > 0 {
				l.Index--
			}
			pos = t.m.shortPosition(l)
			if !t.s.test.isHelper(f.fn.ssa) {
				break
			}
		}
	}
	return pos
}

// isHelper reports whether fn called t.Helper in this test.
func (ts *testState) isHelper(fn *ssa.Function) bool {
	return ts != nil && slices.Contains(ts.helpers, fn)
}

func init() {
	logf := func(fail, now, formatted bool) func(t *thread, args []Value) (Value, ctl) {
		return func(t *thread, args []Value) (Value, ctl) { return t.testLogf(args, fail, now, formatted) }
	}
	for _, recv := range []string{"(*testing.common)", "(*testing.T)"} {
		def(recv+".Error", logf(true, false, false))
		def(recv+".Errorf", logf(true, false, true))
		def(recv+".Fatal", logf(true, true, false))
		def(recv+".Fatalf", logf(true, true, true))
		def(recv+".Log", logf(false, false, false))
		def(recv+".Logf", logf(false, false, true))
		def(recv+".Skip", logf(false, true, false))
		def(recv+".Skipf", logf(false, true, true))
		def(recv+".SkipNow", testSkipNow)
		def(recv+".Fail", testFail)
		def(recv+".FailNow", testFailNow)
		def(recv+".Failed", testFailed)
		def(recv+".Helper", testHelper)
		def(recv+".Deadline", nativeTestingDeadline)
		def(recv+".Attr", nativeTestingAttr)
		defVisible(recv+".Parallel", testParallel)
		def(recv+".Name", testName)
		def(recv+".Cleanup", testCleanupNative)
		def(recv+".Context", testContextNative)
	}
	defVisible("(*testing.T).Run", testRun)
	def("testing.Short", nativeTestingShort)
	def("testing.Verbose", nativeTestingVerbose)
	def("testing.Testing", nativeTestingTesting)
	def("(*testing.F).Add", nativeTestingFAdd)
	def("(*testing.F).Fuzz", nativeTestingFFuzz)
	def("(*testing.F).Helper", nativeTestingFHelper)
}

// nativeTestingDeadline is (*testing.T).Deadline: no deadline, as go test
// -timeout 0 runs (a test sizes its own timeouts then; virtual time makes
// them cost nothing).
func nativeTestingDeadline(t *thread, args []Value) (Value, ctl) {
	tt := t.m.lookupType("time", "Time")
	if tt == nil {
		return nil, t.unsupported(t.g.top, "t.Deadline without package time's types")
	}
	return Tuple{tt.Zero(), false}, ctlNext
}

// nativeTestingAttr is (*testing.T).Attr: the attribute goes to go test's
// output only.
func nativeTestingAttr(t *thread, args []Value) (Value, ctl) { return nil, ctlNext }

// nativeTestingShort is testing.Short: true, as under go test -short (the
// long stress loops tests skip then are what a search cannot exhaust),
// unless the program's arguments say -test.short=false (gmc check PKG --
// -test.short=false; a trace records the arguments).
func nativeTestingShort(t *thread, args []Value) (Value, ctl) {
	return testShort(t.m.opts.Args), ctlNext
}

// testShort reports what -test.short in the program's arguments args says
// testing.Short returns (true without one).
func testShort(args []string) bool {
	short := true
	for _, a := range args {
		name, val, hasVal := strings.Cut(strings.TrimPrefix(strings.TrimPrefix(a, "-"), "-"), "=")
		if strings.HasPrefix(a, "-") && name == "test.short" {
			b, err := strconv.ParseBool(val)
			short = !hasVal || (err == nil && b)
		}
	}
	return short
}

// nativeTestingVerbose is testing.Verbose: whether the program's
// arguments hold -test.v (a re-executed test binary's, exec_child.go).
func nativeTestingVerbose(t *thread, args []Value) (Value, ctl) {
	f, _ := parseChildFlags(t.m.opts.Args)
	return f.verbose, ctlNext
}

// nativeTestingTesting is testing.Testing.
func nativeTestingTesting(t *thread, args []Value) (Value, ctl) { return true, ctlNext }

// nativeTestingFAdd is (*testing.F).Add.
func nativeTestingFAdd(t *thread, args []Value) (Value, ctl) {
	old := t.s.test
	ts := &testState{}
	*ts = *old
	fs := &fuzzState{}
	if old.fuzz != nil {
		fs.seeds = append(fs.seeds, old.fuzz.seeds...)
	}
	fs.seeds = append(fs.seeds, t.sliceValues(args[1]))
	ts.fuzz = fs
	t.s.test = ts
	return nil, ctlNext
}

// nativeTestingFFuzz is (*testing.F).Fuzz.
func nativeTestingFFuzz(t *thread, args []Value) (Value, ctl) {
	return nil, t.fuzzCall(args[1])
}

// nativeTestingFHelper is (*testing.F).Helper.
func nativeTestingFHelper(t *thread, args []Value) (Value, ctl) { return nil, ctlNext }

// sliceValues returns the elements of a []any (variadic arguments).
func (t *thread) sliceValues(v Value) []Value {
	sl, ok := v.(Slice)
	if !ok || sl.Obj == 0 {
		return nil
	}
	return append([]Value(nil), t.s.sliceCells(sl, &RType{Size: 1})...)
}

// fuzzCall calls the fuzz function with the target's inputs: symbolic when
// the search explores data, else the first seed (or zero values).
func (t *thread) fuzzCall(fn Value) ctl {
	if iv, ok := fn.(Iface); ok { // f.Fuzz takes the function as an any
		fn = iv.V
	}
	cl, _ := fn.(*Closure)
	if cl == nil || cl.Fn == nil {
		return t.unsupported(t.g.top, "f.Fuzz without a function literal")
	}
	sig := cl.Fn.Signature
	args := make([]Value, sig.Params().Len())
	pt := sig.Params().At(0).Type().(*types.Pointer)
	args[0] = t.alloc(t.m.types.get(pt.Elem()))
	// the input's T is one the VM runs (go test runs each input in a
	// tRunner of its own): its t.Error fails the fuzz target, it is not
	// a T the program made (testing_mock.go)
	t.markRunner(args[0].(Pointer))
	var seed []Value
	if t.s.test != nil && t.s.test.fuzz != nil && len(t.s.test.fuzz.seeds) > 0 {
		seed = t.s.test.fuzz.seeds[0]
	}
	for i := 1; i < len(args); i++ {
		pti := sig.Params().At(i)
		var v Value
		if i-1 < len(seed) {
			if iv, ok := seed[i-1].(Iface); ok {
				v = iv.V
			}
		}
		if v == nil {
			v = t.m.types.get(pti.Type()).Zero()
		}
		args[i] = t.fuzzInput(i-1, pti.Name(), pti.Type(), v)
	}
	return t.callCont(t.g.top, cl, args, func(t *thread, _ Value) ctl { return t.ret(t.g.top, nil) })
}

var _ = ssa.Function{}

// testFail is t.Fail.
func testFail(t *thread, args []Value) (Value, ctl) {
	if tp, mock := t.mockTest(args[0]); mock {
		t.mockFail(tp)
		return nil, ctlNext
	}
	if c := t.failAfterDone(ptrArg(args[0])); c != ctlNext {
		return nil, c
	}
	t.testLog("", true)
	return nil, ctlNext
}

// testFailNow is t.FailNow.
func testFailNow(t *thread, args []Value) (Value, ctl) {
	if c := t.failAfterDone(ptrArg(args[0])); c != ctlNext {
		return nil, c
	}
	t.testLog("", true)
	t.g.top.pc++
	return nil, t.goexit(t.g.top)
}

// testFailed is t.Failed.
func testFailed(t *thread, args []Value) (Value, ctl) {
	if tp, mock := t.mockTest(args[0]); mock {
		return t.mockFailed(tp), ctlNext
	}
	return t.s.test != nil && t.s.test.failed, ctlNext
}

// testHelper is t.Helper: the calling function's logs are reported at
// its caller's line (callerPos).
func testHelper(t *thread, args []Value) (Value, ctl) {
	f := t.g.top
	for f != nil && (f.fn == nil || hiddenFunc(f.fn.ssa)) {
		f = f.caller
	}
	if f == nil || t.s.test == nil || t.s.test.isHelper(f.fn.ssa) {
		return nil, ctlNext
	}
	ts := &testState{}
	*ts = *t.s.test
	ts.helpers = append(slices.Clip(ts.helpers), f.fn.ssa)
	t.s.test = ts
	return nil, ctlNext
}

// testName is t.Name.
func testName(t *thread, args []Value) (Value, ctl) {
	return t.testNameOf(ptrArg(args[0])), ctlNext
}

// testCleanupNative is t.Cleanup.
func testCleanupNative(t *thread, args []Value) (Value, ctl) {
	return nil, t.testCleanup(ptrArg(args[0]), args[1])
}

// testContextNative is t.Context.
func testContextNative(t *thread, args []Value) (Value, ctl) { return t.testContext(ptrArg(args[0])) }
