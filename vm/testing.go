package vm

import (
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// Tests run as testing.tRunner runs them: the test function, then (on
// return or on runtime.Goexit — t.FailNow, t.SkipNow) the cancellation of
// t.Context() and the functions registered with t.Cleanup, last first; a
// subtest (t.Run) does the same in its own runner before Run returns. The
// runner is a continuation frame (fn == nil, runner set) whose pc counts
// its stage; unwinding a Goexit stops at the innermost runner. The
// cleanups and the context live in the *testing.T's own fields
// (common.cleanups, common.ctx, common.cancelCtx), so they are part of the
// state, hashed and reachable like any Go value.

// testField returns the cell offset in a testing.T of the field name
// (promoted through common) and its type.
func (m *Machine) testField(tt *RType, name string) (int32, *RType, bool) {
	named, ok := tt.T.(*types.Named)
	if !ok {
		return 0, nil, false
	}
	obj, index, _ := types.LookupFieldOrMethod(tt.T, false, named.Obj().Pkg(), name)
	if _, isVar := obj.(*types.Var); !isVar {
		return 0, nil, false
	}
	off, rt := 0, tt
	for _, i := range index {
		st, ok := rt.T.Underlying().(*types.Struct)
		if !ok || i >= len(rt.Fields) {
			return 0, nil, false
		}
		off += rt.Fields[i]
		rt = m.types.get(st.Field(i).Type())
	}
	return int32(off), rt, true
}

// testCell returns the cell of field name of the testing.T at tp.
func (t *thread) testCell(tp Pointer, name string) (Pointer, *RType, bool) {
	o := t.s.heap.get(tp.Obj)
	if o == nil || o.T == nil {
		return Pointer{}, nil, false
	}
	off, rt, ok := t.m.testField(o.T, name)
	if !ok {
		return Pointer{}, nil, false
	}
	return Pointer{Obj: tp.Obj, Off: tp.Off + off}, rt, true
}

// runTest calls fn(tp) above fr (fr's instruction completes when the
// runner returns result(t) to it).
func (t *thread) runTest(fr *frame, fn Value, tp Pointer, result func(t *thread) Value) ctl {
	t.markRunner(tp) // (testing_mock.go)
	return t.callContFrame(fr, fn, []Value{tp}, func(t *thread, _ Value) ctl {
		return t.testRunnerStep(tp, result)
	}, true, 0)
}

// testRunnerStep runs in the runner frame (the top frame) each time the
// test function, a cancellation or a cleanup has returned.
func (t *thread) testRunnerStep(tp Pointer, result func(t *thread) Value) ctl {
	self := t.g.top
	first := self.pc == 0
	self.pc = 1
	if !t.testFunctionReturned(tp, first) { // its parallel subtests run (testing_parallel.go)
		return ctlBlock
	}
	if p, rt, ok := t.testCell(tp, "cancelCtx"); ok {
		if cancel, _ := t.cell(p, 0).(*Closure); cancel != nil {
			t.setCell(p, 0, rt.Zero())
			return t.callAbove(self, cancel, nil)
		}
	}
	if p, rt, ok := t.testCell(tp, "cleanups"); ok {
		if sl, _ := t.cell(p, 0).(Slice); sl.Len > 0 {
			f := t.s.sliceElem(sl, rt.Elem, sl.Len-1)
			sl.Len--
			t.setCell(p, 0, sl)
			return t.callAbove(self, f, nil)
		}
	}
	t.markTestDone(tp)
	return t.ret(self, result(t))
}

// testCleanup registers f to run when the test of tp ends (t.Cleanup).
func (t *thread) testCleanup(tp Pointer, f Value) ctl {
	p, rt, ok := t.testCell(tp, "cleanups")
	if !ok {
		return t.unsupported(t.g.top, "t.Cleanup on this testing.T")
	}
	sl, _ := t.cell(p, 0).(Slice)
	t.share(f)
	t.setCell(p, 0, t.appendSlice(sl, rt.Elem, []Value{f}))
	return ctlNext
}

// testContext returns t.Context(): made on first use with
// context.WithCancel(context.Background()), canceled by the runner before
// the cleanups.
func (t *thread) testContext(tp Pointer) (Value, ctl) {
	p, _, ok := t.testCell(tp, "ctx")
	q, _, ok2 := t.testCell(tp, "cancelCtx")
	bg, wc := t.m.pkgFunc("context", "Background"), t.m.pkgFunc("context", "WithCancel")
	if !ok || !ok2 || bg == nil || wc == nil {
		return nil, t.unsupported(t.g.top, "t.Context")
	}
	if ctx, _ := t.cell(p, 0).(Iface); ctx.T != nil {
		return ctx, ctlNext
	}
	return nil, t.callCont(t.g.top, t.m.funcValue(bg), nil, func(t *thread, res Value) ctl {
		self := t.g.top
		if self.pc == 0 {
			self.pc = 1
			return t.callAbove(self, t.m.funcValue(wc), []Value{res})
		}
		tup := res.(Tuple)
		t.share(tup[0])
		t.share(tup[1])
		t.setCell(p, 0, tup[0])
		t.setCell(q, 0, tup[1])
		return t.ret(self, tup[0])
	})
}

// pkgFunc returns the function name of package path in the program.
func (m *Machine) pkgFunc(path, name string) *ssa.Function {
	if p := m.prog.SSA.ImportedPackage(path); p != nil {
		return p.Func(name)
	}
	return nil
}

// (*testing.M).Run runs the entry's test (once, as go test runs the
// tests it selected) and returns the exit code go test's would: 1 if it
// failed, else 0.
func init() {
	def("(*testing.M).Run", nativeTestingMRun)
}

// nativeTestingMRun is (*testing.M).Run.
func nativeTestingMRun(t *thread, args []Value) (Value, ctl) {
	ts := t.s.test
	if ts == nil || ts.run == nil {
		if ts != nil && ts.failed {
			return 1, ctlNext
		}
		return 0, ctlNext
	}
	fn := ts.run
	nts := *ts
	nts.run, nts.mRun = nil, fn
	t.s.test = &nts
	pt := fn.Signature.Params().At(0).Type().(*types.Pointer)
	tp := t.alloc(t.m.types.get(pt.Elem()))
	t.share(tp)
	nts.entryT = tp.Obj
	return nil, t.runTest(t.g.top, t.m.funcValue(fn), tp, func(t *thread) Value {
		if t.s.test != nil && t.s.test.failed {
			return 1
		}
		return 0
	})
}
