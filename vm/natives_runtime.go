package vm

import (
	"go/ast"
	"go/token"
	"go/types"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"

	"github.com/gmc-go/gmc/vm/loc"
	"golang.org/x/tools/go/ssa"
)

// Native models of the runtime's stack introspection: runtime.Callers,
// runtime.CallersFrames with (*Frames).Next, runtime.FuncForPC with
// (*Func).Name/Entry/FileLine, runtime.Stack and runtime/debug.Stack.
//
// Program counters: a frame's PC is a synthetic address naming an SSA
// instruction, pcBase + fnID<<32 + block<<16 + 2*index+2 (the machine's
// function numbering, see Machine.fnID), so that PC-1, which Go's
// convention puts inside the call instruction (pkg/errors decodes a
// frame's PC-1 with FuncForPC and FileLine), is the same instruction, not
// the one before it; the runtime's own frames that Go
// shows (runtime.Callers, runtime.gopanic, runtime.main, runtime.goexit)
// have small PCs of their own, with the file and line of go1.26's runtime;
// so does testing.tRunner below a test's own goroutine when the test runs
// as go test runs it (testState.tRunner), whose frame the VM has no code for.
// A PC or PC-1 decodes to the same frame. A *runtime.Func is a funcRef
// holding its function's entry PC, so two Funcs of one function are ==.
//
// Stacks are the VM goroutine's frames, innermost first; while a deferred
// call runs because of a panic, the frames between the panic and the
// function running its defers are shown above it, after runtime.gopanic,
// as Go does. runtime.Stack formats stacks as Go prints the frames of
// inlined calls ("main.f(...)" without argument values or PC offsets),
// with the "created by" line of a goroutine a go statement started; a
// function without parameters prints "()" as in Go ("main.f()").

const pcBase = 0x400000

// runtimeFrames are the runtime functions that appear in stacks, by
// synthetic PC index.
// synthetic PC index; noFunc frames have no *Func (inlined in Go), and
// shown is the name runtime.Stack prints ("" for frames it hides).
var runtimeFrames = []struct {
	name, file string // file relative to GOROOT/src
	line       int
	noFunc     bool
	shown      string
}{
	{},
	{"runtime.Callers", "runtime/extern.go", 339, true, ""},
	{"runtime.gopanic", "runtime/panic.go", 860, false, "panic"},
	{"runtime.panicmem", "runtime/panic.go", 336, true, ""},
	{"runtime.sigpanic", "runtime/signal_unix.go", 931, false, ""},
	{"runtime.main", "runtime/proc.go", 290, false, ""},
	{"runtime.goexit", "runtime/asm_amd64.s", 1771, false, ""},
	{"testing.tRunner", "testing/testing.go", 2036, false, ""},
	// below an example: go test runs it on its main goroutine
	{"testing.runExample", "testing/run_example.go", 63, false, "testing.runExample"},
	{"testing.runExamples", "testing/example.go", 41, false, "testing.runExamples"},
	{"testing.(*M).Run", "testing/testing.go", 2445, false, "testing.(*M).Run"},
	{"main.main", "_testmain.go", 46, false, "main.main"}, // (the generated test main: a file of the build's work directory)
	// the code of the functions reflect makes (reflect.Value.Pointer)
	{"reflect.makeFuncStub", "reflect/asm_amd64.s", 28, false, ""},
	{"reflect.methodValueCall", "reflect/asm_amd64.s", 57, false, ""},
}

const (
	rfCallers = 1 + iota
	rfGopanic
	rfPanicmem
	rfSigpanic
	rfMain
	rfGoexit
	rfTRunner
	rfRunExample
	rfRunExamples
	rfMRun
	rfTestMain
	rfMakeFuncStub
	rfMethodValueCall
)

// nilDerefMsg is the message of the runtime error of a nil dereference,
// which Go raises from a memory fault (runtime.sigpanic, runtime.panicmem).
const nilDerefMsg = "runtime error: invalid memory address or nil pointer dereference"

// runtimePC is the PC of runtime frame k.
func runtimePC(k int) uintptr { return pcBase + uintptr(k)*16 + 1 }

// funcRef is the VM value of a *runtime.Func: its function's entry PC.
type funcRef struct{ entry uintptr }

func (f funcRef) hashInto(h *hasher) { h.u64(uint64(f.entry)) }

// encodePC returns the PC of an instruction.
func (m *Machine) encodePC(l loc.Loc) uintptr {
	return pcBase + uintptr(m.fnID(l.Fn))<<32 + uintptr(l.Block&0xffff)<<16 + uintptr(2*l.Index+2)&0xffff
}

// entryPC returns the PC of a function's entry, as reflect.Value.Pointer
// gives it for a func value (decodePC names it by runtimeFuncName).
func (m *Machine) entryPC(fn *ssa.Function) uintptr {
	return pcBase + uintptr(m.fnID(fn))<<32
}

// pcFrame is what a PC decodes to.
type pcFrame struct {
	fn     string // the runtime's function name
	file   string
	line   int
	entry  uintptr
	noFunc bool // a runtime frame without a *Func
}

// decodePC returns the frame of a PC (or PC-1); ok is false for a PC the
// VM did not make.
func (m *Machine) decodePC(pc uintptr) (pcFrame, bool) {
	if pc < pcBase {
		return pcFrame{}, false
	}
	v := pc - pcBase
	id := int64(v >> 32)
	if id == 0 {
		k := int(v / 16)
		if k <= 0 || k >= len(runtimeFrames) {
			return pcFrame{}, false
		}
		rf := runtimeFrames[k]
		file := rf.file
		if strings.Contains(file, "/") { // (else the test main's file, named as go test names it)
			file = filepath.Join(runtime.GOROOT(), "src", filepath.FromSlash(file))
		}
		return pcFrame{fn: rf.name, file: file, line: rf.line, entry: runtimePC(k) - 1, noFunc: rf.noFunc}, true
	}
	var fn *ssa.Function
	m.fnIDs.Range(func(k, val any) bool {
		if val.(int64) == id {
			fn = k.(*ssa.Function)
			return false
		}
		return true
	})
	if fn == nil {
		return pcFrame{}, false
	}
	l := loc.Loc{Fn: fn, Block: int(v >> 16 & 0xffff), Index: (int(v&0xffff) - 1) / 2} // PC and PC-1 alike
	if l.Index < 0 {
		l.Index = 0
	}
	if l.Block < len(fn.Blocks) && l.Index >= len(fn.Blocks[l.Block].Instrs) {
		l.Index = len(fn.Blocks[l.Block].Instrs) - 1
	}
	p := m.prog.Fset.Position(stackPos(l))
	return pcFrame{fn: runtimeFuncName(fn), file: p.Filename, line: p.Line, entry: pcBase + uintptr(id)<<32}, true
}

// stackPos is the source position of a stack frame's location: as l.Pos,
// but a function returning through an implicit return at its end is at its
// closing brace, where Go runs its deferred calls.
func stackPos(l loc.Loc) token.Pos {
	in := l.Instr()
	switch in.(type) {
	case *ssa.RunDefers, *ssa.Return:
		for _, next := range l.Fn.Blocks[l.Block].Instrs[l.Index:] {
			if ret, ok := next.(*ssa.Return); ok && !ret.Pos().IsValid() {
				switch syn := l.Fn.Syntax().(type) {
				case *ast.FuncDecl:
					if syn.Body != nil {
						return syn.Body.Rbrace
					}
				case *ast.FuncLit:
					return syn.Body.Rbrace
				}
			}
		}
	}
	return l.Pos()
}

// stackPC is one frame of a stack: a VM location or a runtime frame.
type stackPC struct {
	l  loc.Loc
	rf int // runtime frame index (l unused) when > 0
}

// hiddenFunc reports whether fn is a function gc generates and hides
// from stacks (its funcID is abi.FuncIDWrapper: runtime.Callers,
// runtime.Caller and tracebacks skip it): a method's wrapper (a pointer
// receiver's wrapper of a value method, an embedded field's promoted
// method), a method value's bound wrapper ("-fm"), a method expression's
// thunk (gc calls the method itself) and an instantiation wrapper. A
// generic function's instance, a range-over-func loop body and a package
// initializer are synthetic in SSA but real frames in gc's stacks.
func hiddenFunc(fn *ssa.Function) bool {
	syn := fn.Synthetic
	if syn == "" {
		return false
	}
	return strings.HasPrefix(syn, "wrapper for ") || strings.HasPrefix(syn, "bound method wrapper for ") ||
		strings.HasPrefix(syn, "thunk for ") || strings.HasPrefix(syn, "instantiation wrapper of ")
}

// stackDepth counts the frames from f to the bottom of its stack.
func stackDepth(f *frame) int {
	n := 0
	for ; f != nil; f = f.caller {
		n++
	}
	return n
}

// frameLoc is the location a frame shows in a stack: its next instruction
// for the innermost frame and the frame that panicked, otherwise the call
// it is executing.
func frameLoc(f *frame, exact bool) loc.Loc {
	l := loc.Loc{Fn: f.fn.ssa, Block: f.block.index, Index: f.block.first + int(f.pc)}
	if !exact && f.pc > 0 {
		l.Index--
	}
	return l
}

// goroutineStack returns g's stack, innermost first, as Go shows it (see
// the file comment); withRuntime adds the runtime's frames at the bottom,
// and below the program's own the frames of go test's that run it (bottom:
// State.entryFrames).
func goroutineStack(g *goroutine, withRuntime bool, bottom []int) []stackPC {
	var out []stackPC
	var panicDepth int
	var p *panicState
	if g.panic != nil && g.panic.stack != nil && !g.panic.goexit {
		p = g.panic
		panicDepth = stackDepth(p.stack)
	}
	var last *frame
	calleeDefer := false // the frame above runs a deferred call of this one
	for f := g.top; f != nil; f = f.caller {
		if f.fn == nil || f.block == nil {
			continue
		}
		// the innermost frame, the frame that panicked and a frame
		// running its deferred calls on return are at their next
		// instruction; the others, after the call they are executing
		panicked := p != nil && f.unwinding && stackDepth(f) == panicDepth
		exact := f == g.top || panicked || (calleeDefer && !f.unwinding)
		if !hiddenFunc(f.fn.ssa) || panicked {
			// a wrapper stays only where it panicked (Go's
			// elideWrapperCalling: a wrapper calling gopanic or
			// sigpanic is shown)
			out = append(out, stackPC{l: frameLoc(f, exact)})
		}
		last = f
		calleeDefer = f.isDefer
		if p != nil && f.isDefer && f.caller != nil && f.caller.unwinding {
			// the frames the panic left, above the frame running its defers
			out = append(out, stackPC{rf: rfGopanic})
			if iv, ok := p.val.(Iface); ok && iv.V == nilDerefMsg {
				out = append(out, stackPC{rf: rfPanicmem}, stackPC{rf: rfSigpanic})
			}
			d := stackDepth(f.caller)
			for pf := p.stack; pf != nil && stackDepth(pf) > d; pf = pf.caller {
				if pf.fn != nil && pf.block != nil && (pf == p.stack || !hiddenFunc(pf.fn.ssa)) {
					out = append(out, stackPC{l: frameLoc(pf, pf == p.stack)})
				}
			}
		}
	}
	if withRuntime {
		for _, rf := range bottom {
			out = append(out, stackPC{rf: rf})
		}
		if last != nil && g.entry && (runtimeFuncName(last.fn.ssa) == "main.main" || slices.Contains(bottom, rfTestMain)) {
			out = append(out, stackPC{rf: rfMain})
		}
		out = append(out, stackPC{rf: rfGoexit})
	}
	return out
}

// formatStack writes a goroutine's stack as runtime.Stack does.
func (s *State) formatStack(b *strings.Builder, g *goroutine, status string, extra []string) {
	m := s.m
	b.WriteString("goroutine " + strconv.Itoa(s.goID(g.id)) + " [" + status + "]:\n")
	for _, e := range extra {
		b.WriteString(e)
	}
	if g.status == gBlocked {
		for _, name := range m.blockedInFrames(g) {
			b.WriteString(name + "(...)\n\t" + stdFuncFile(name) + "\n")
		}
	}
	for _, sp := range goroutineStack(g, false, nil) {
		var fr pcFrame
		if sp.rf > 0 {
			if runtimeFrames[sp.rf].shown == "" {
				continue
			}
			fr, _ = m.decodePC(runtimePC(sp.rf))
			fr.fn = runtimeFrames[sp.rf].shown
		} else {
			p := m.prog.Fset.Position(stackPos(sp.l))
			fr = pcFrame{fn: runtimeFuncName(sp.l.Fn), file: p.Filename, line: p.Line}
			if len(sp.l.Fn.Params) == 0 {
				fr.fn += "()" // no argument to elide: Go prints "()"
			}
		}
		if !strings.HasSuffix(fr.fn, "()") {
			fr.fn += "(...)"
		}
		b.WriteString(fr.fn + "\n\t" + fr.file + ":" + strconv.Itoa(fr.line) + "\n")
	}
	if g.entry && s.entry == EntryExample {
		// go test's main goroutine, running the example
		for _, rf := range s.entryFrames(g) {
			fr, _ := m.decodePC(runtimePC(rf))
			args := "(...)"
			if rf == rfTestMain {
				args = "()"
			}
			b.WriteString(fr.fn + args + "\n\t" + fr.file + ":" + strconv.Itoa(fr.line) + "\n")
		}
		return
	}
	if s.testGoroutine(g) {
		// a test's goroutine, started by testing.(*T).Run: go test's
		// main goroutine (1) for the test itself, its parent for a subtest
		parent := 1
		if !g.entry && g.origin != nil {
			parent = s.goID(g.origin.parent)
		}
		b.WriteString("testing.tRunner(...)\n\t" + stdFuncFile("testing.tRunner") + "\n")
		b.WriteString("created by testing.(*T).Run in goroutine " + strconv.Itoa(parent) + "\n\t" + stdFuncFile("testing.(*T).Run") + "\n")
		return
	}
	if o := g.origin; o != nil && o.createdAt.Fn != nil && !g.entry {
		l := o.createdAt
		p := m.prog.Fset.Position(stackPos(l))
		b.WriteString("created by " + runtimeFuncName(l.Fn) + " in goroutine " + strconv.Itoa(s.goID(o.parent)) + "\n\t" + p.Filename + ":" + strconv.Itoa(p.Line) + "\n")
	}
}

// callersStack is g's stack as runtime.Callers and runtime.Caller see it.
// Under a TestMain, m.Run calls the test on the entry's goroutine, where go
// test runs it on a goroutine of testing.tRunner: the frames below the
// test function's are those of that goroutine (uber-go/zap's caller tests
// skip frames from a test down to the runtime's, and found TestMain's).
func (s *State) callersStack(g *goroutine) []stackPC {
	st := goroutineStack(g, true, s.entryFrames(g))
	if !g.entry || s.test == nil || s.test.mRun == nil {
		return st
	}
	for i := len(st) - 1; i >= 0; i-- {
		if st[i].rf == 0 && st[i].l.Fn == s.test.mRun {
			return append(st[:i+1:i+1], stackPC{rf: rfTRunner}, stackPC{rf: rfGoexit})
		}
	}
	return st
}

// entryFrames are the frames of go test's that Go shows below g's own
// (runtimeFrames' indices, innermost first): testing.tRunner below a test
// or subtest that runs as go test runs it (testGoroutine), and below an
// example, which go test runs on its main goroutine, the calls that lead
// to it from the test main's main.main.
func (s *State) entryFrames(g *goroutine) []int {
	switch {
	case s.testGoroutine(g):
		return []int{rfTRunner}
	case g.entry && s.entry == EntryExample:
		return []int{rfRunExample, rfRunExamples, rfMRun, rfTestMain}
	}
	return nil
}

// testGoroutine reports whether g runs a test or a subtest as go test runs
// it: its stack ends in testing.tRunner, started by testing.(*T).Run. A
// subtest's goroutine always does, under a TestMain too (go.uber.org/fx's
// TestDeepStack counts the frames of runtime.Callers in a subtest); the
// entry's own goroutine only without TestMain (goTestMain).
func (s *State) testGoroutine(g *goroutine) bool {
	return g.start() == "testing.tRunner"
}

// goID is the id the program sees for goroutine id: under a test run as
// go test runs it (testState.tRunner), goroutine 1 is go test's main
// goroutine, waiting in testing.(*T).Run, and the VM's goroutine N is N+1.
func (s *State) goID(id int) int {
	if s.goTestMain() {
		return id + 1
	}
	return id
}

// goTestMain reports whether the run has go test's main goroutine beside
// the test's (testState.tRunner).
func (s *State) goTestMain() bool { return s.test != nil && s.test.tRunner }

// testMainStack is the stack of go test's main goroutine while a test runs
// (runtime.Stack with all set shows it, goleak's filters recognize it).
func testMainStack(b *strings.Builder) {
	b.WriteString("goroutine 1 [chan receive]:\n")
	for _, name := range []string{"testing.(*T).Run", "testing.runTests.func1", "testing.tRunner", "testing.runTests", "testing.(*M).Run"} {
		b.WriteString(name + "(...)\n\t" + stdFuncFile(name) + "\n")
	}
	b.WriteString("main.main()\n\t_testmain.go:1\n")
}

// blockedFrames are the frames Go shows above a goroutine blocked in a
// modelled standard-library function (runtime.Stack hides runtime.gopark
// and the scheduler), innermost first, by the function's runtime name;
// a modelled function not listed shows itself. goleak's filters read
// them (testing.(*T).Run, testing.(*T).Parallel at the top of a stack in
// "chan receive" is the testing package's own goroutine).
var blockedFrames = map[string][]string{
	"sync.(*Mutex).Lock":          {"internal/sync.runtime_SemacquireMutex", "internal/sync.(*Mutex).lockSlow", "internal/sync.(*Mutex).Lock", "sync.(*Mutex).Lock"},
	"sync.(*RWMutex).RLock":       {"sync.runtime_SemacquireRWMutexR", "sync.(*RWMutex).RLock"},
	"sync.(*RWMutex).Lock":        {"sync.runtime_SemacquireRWMutex", "sync.(*RWMutex).Lock"},
	"sync.(*WaitGroup).Wait":      {"sync.runtime_SemacquireWaitGroup", "sync.(*WaitGroup).Wait"},
	"sync.(*Cond).Wait":           {"sync.runtime_notifyListWait", "sync.(*Cond).Wait"},
	"internal/sync.(*Mutex).Lock": {"internal/sync.runtime_SemacquireMutex", "internal/sync.(*Mutex).lockSlow", "internal/sync.(*Mutex).Lock"},
}

// blockedInFrames returns the standard-library frames above g's innermost
// VM frame when g is blocked inside a call of a modelled (native)
// function of the standard library: that frame stands at the call.
func (m *Machine) blockedInFrames(g *goroutine) []string {
	f := g.top
	if f == nil || f.fn == nil || f.block == nil {
		return nil
	}
	l := frameLoc(f, true)
	instrs := l.Fn.Blocks[l.Block].Instrs
	if l.Index < 0 || l.Index >= len(instrs) {
		return nil
	}
	call, ok := instrs[l.Index].(ssa.CallInstruction)
	if !ok {
		return nil
	}
	callee := call.Common().StaticCallee()
	if callee == nil || callee.Pkg == nil || !m.prog.IsStdPackage(callee.Pkg) {
		return nil
	}
	name := runtimeFuncName(callee)
	if fs, ok := blockedFrames[name]; ok {
		return fs
	}
	return []string{name}
}

// stdFuncFile is the file:line runtime.Stack prints for a standard-library
// frame gmc shows without running it: its package's directory in GOROOT
// (the line is not modelled: 1).
func stdFuncFile(name string) string {
	pkg := name
	if i := strings.Index(pkg, ".("); i >= 0 {
		pkg = pkg[:i]
	} else if i := strings.LastIndex(pkg, "/"); i >= 0 {
		if j := strings.Index(pkg[i:], "."); j >= 0 {
			pkg = pkg[:i+j]
		}
	} else if i := strings.Index(pkg, "."); i >= 0 {
		pkg = pkg[:i]
	}
	return filepath.Join(runtime.GOROOT(), "src", pkg, filepath.Base(pkg)+".go") + ":1"
}

// stackText is the text of runtime.Stack(buf, all); extra are frames
// shown above the running goroutine's (runtime/debug.Stack's own).
func (t *thread) stackText(all bool, extra ...string) string {
	t.s.idsSeen = true // the text names goroutines by id (hash.go)
	var b strings.Builder
	t.s.formatStack(&b, t.g, "running", extra)
	if all {
		if t.s.goTestMain() {
			b.WriteByte('\n')
			testMainStack(&b)
		}
		for g := range t.s.gs.all() {
			if g == t.g || g.id == t.g.id || g.status == gDead {
				continue
			}
			status := "runnable"
			if g.status == gBlocked && !t.s.guard(g) && g.wait.reason != "" {
				status = g.wait.reason
			}
			b.WriteByte('\n')
			t.s.formatStack(&b, g, status, nil)
		}
	}
	return b.String()
}

// frameValue builds a runtime.Frame for pc.
func (t *thread) frameValue(frameT *RType, pc uintptr) Value {
	cells := append([]Value(nil), frameT.Zero().([]Value)...)
	st, _ := frameT.T.Underlying().(*types.Struct)
	set := func(name string, v Value) {
		for i := 0; st != nil && i < st.NumFields(); i++ {
			if st.Field(i).Name() == name {
				cells[frameT.Fields[i]] = v
			}
		}
	}
	set("PC", pc)
	if fr, ok := t.m.decodePC(pc); ok {
		if !fr.noFunc {
			set("Func", funcRef{fr.entry})
		}
		set("Function", fr.fn)
		set("File", fr.file)
		set("Line", fr.line)
		set("Entry", fr.entry)
	}
	return cells
}

// structField returns the cell offset of field name of struct type rt (-1 if none).
func structField(rt *RType, name string) int {
	st, ok := rt.T.Underlying().(*types.Struct)
	if !ok {
		return -1
	}
	for i := 0; i < st.NumFields(); i++ {
		if st.Field(i).Name() == name {
			return rt.Fields[i]
		}
	}
	return -1
}

// funcArg returns the entry PC of a *runtime.Func receiver (0 for nil).
func funcArg(v Value) uintptr {
	if f, ok := v.(funcRef); ok {
		return f.entry
	}
	return 0
}
