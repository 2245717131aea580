package vm

// Subtests and t.Parallel as go test runs them. t.Run starts the subtest
// on a goroutine of its own (testing.tRunner) and waits until it ends or
// calls t.Parallel; a parallel subtest then waits until its parent's test
// function has returned, and runs concurrently with its parallel
// siblings; the parent's runner, once its function returned, waits for
// its parallel subtests before canceling its context and running its
// cleanups. The flags are the *testing.T's own fields, so they are state
// like any Go value: common.finished (the test function returned),
// common.done (the subtest's runner ended), common.isParallel, common.sub
// (the parallel subtests), common.parent. Each wait is ordered for the race
// detector as Go's channels order it (t.signal, t.parent.barrier,
// sub.signal).

// subtestRunner is the function of a subtest's goroutine: it runs f(sub)
// in a runner and marks sub done when the runner ends.
var subtestRunner = &nativeFunc{name: "testing.tRunner", fn: runSubtest}

func runSubtest(t *thread, args []Value) (Value, ctl) {
	sub := ptrArg(args[0])
	return nil, t.runTest(t.g.top, args[1], sub, func(t *thread) Value {
		t.touchTest() // (it enables its parent)
		t.testSetBool(sub, "done", true)
		t.testRelease(sub, "signal")
		return nil
	})
}

// testRun is (*testing.T).Run(name, f): phase 0 starts the subtest and
// waits (nstate 1); phase 1 returns whether the subtest has not failed.
func testRun(t *thread, args []Value) (Value, ctl) {
	g := t.g
	t.touchTest()
	if g.nstate == 0 {
		tp := ptrArg(args[0])
		sub := t.alloc(t.s.heap.get(tp.Obj).T)
		t.share(sub)
		if p, _, ok := t.testCell(sub, "parent"); ok {
			t.setCell(p, 0, tp)
		}
		name, _ := args[1].(string)
		t.testSetName(sub, t.subtestName(t.testNameOf(tp), name))
		t.spawn(nil, &Closure{Native: subtestRunner}, []Value{sub, args[2]}, "testing.tRunner")
		g.nstate = 1
		g.status = gBlocked
		g.wait = waitInfo{kind: waitSubtest, reason: "chan receive", ptr: sub}
		return nil, ctlBlock
	}
	sub := g.wait.ptr
	g.nstate = 0
	t.testAcquire(sub, "signal")
	return !(t.s.test != nil && t.s.test.failed), ctlNext
}

// testParallel is (*testing.T).Parallel: a subtest signals its parent's
// t.Run (nstate 0) and waits for its parent's function to return
// (nstate 1). A top-level test has no sibling in gmc's run (one test per
// entry): it goes on.
func testParallel(t *thread, args []Value) (Value, ctl) {
	g := t.g
	tp := ptrArg(args[0])
	t.touchTest()
	parent, ok := t.testParent(tp)
	if g.nstate == 0 {
		if t.testBool(tp, "isParallel") {
			return nil, t.stringPanic("testing: t.Parallel called multiple times")
		}
		if g.bubble != 0 {
			return nil, t.stringPanic("testing: t.Parallel called inside synctest bubble")
		}
		t.testSetBool(tp, "isParallel", true)
		if !ok {
			return nil, ctlNext
		}
		if p, rt, ok := t.testCell(parent, "sub"); ok {
			sl, _ := t.cell(p, 0).(Slice)
			t.setCell(p, 0, t.appendSlice(sl, rt.Elem, []Value{tp}))
		}
		t.testRelease(tp, "signal")
		if t.testBool(parent, "finished") {
			t.testAcquire(parent, "barrier")
			return nil, ctlNext
		}
		g.nstate = 1
		g.status = gBlocked
		g.wait = waitInfo{kind: waitBarrier, reason: "chan receive", ptr: parent}
		return nil, ctlBlock
	}
	g.nstate = 0
	t.testAcquire(parent, "barrier")
	return nil, ctlNext
}

// testParent returns the *testing.T whose t.Run started the test at tp.
func (t *thread) testParent(tp Pointer) (Pointer, bool) {
	p, _, ok := t.testCell(tp, "parent")
	if !ok {
		return Pointer{}, false
	}
	parent, _ := t.cell(p, 0).(Pointer)
	return parent, parent.Obj != 0
}

// testFunctionReturned marks the test at tp's function returned
// (common.finished), which releases its parallel subtests, and reports
// whether they all ended; if not, the runner waits (waitSubtests).
func (t *thread) testFunctionReturned(tp Pointer, first bool) bool {
	t.touchTest()
	if first {
		t.testSetBool(tp, "finished", true)
		t.testRelease(tp, "barrier")
	}
	if !t.s.subtestsDone(tp) {
		t.g.status = gBlocked
		t.g.wait = waitInfo{kind: waitSubtests, reason: "chan receive", ptr: tp}
		return false
	}
	if p, rt, ok := t.testCell(tp, "sub"); ok {
		sl, _ := t.cell(p, 0).(Slice)
		for i := 0; i < sl.Len; i++ {
			if sub, _ := t.s.sliceElem(sl, rt.Elem, i).(Pointer); sub.Obj != 0 {
				t.testAcquire(sub, "signal")
			}
		}
	}
	return true
}

// subtestsDone reports whether every parallel subtest of the test at tp
// has ended.
func (s *State) subtestsDone(tp Pointer) bool {
	p, rt, ok := s.testCellOf(tp, "sub")
	if !ok {
		return true
	}
	sl, _ := s.heap.get(p.Obj).cell(int(p.Off)).(Slice)
	for i := 0; i < sl.Len; i++ {
		if sub, _ := s.sliceElem(sl, rt.Elem, i).(Pointer); sub.Obj != 0 && !s.testBoolOf(sub, "done") {
			return false
		}
	}
	return true
}

// testCellOf is thread.testCell on a state.
func (s *State) testCellOf(tp Pointer, name string) (Pointer, *RType, bool) {
	o := s.heap.get(tp.Obj)
	if o == nil || o.T == nil {
		return Pointer{}, nil, false
	}
	off, rt, ok := s.m.testField(o.T, name)
	if !ok {
		return Pointer{}, nil, false
	}
	return Pointer{Obj: tp.Obj, Off: tp.Off + off}, rt, true
}

// testBoolOf reads the bool field name of the testing.T at tp.
func (s *State) testBoolOf(tp Pointer, name string) bool {
	p, _, ok := s.testCellOf(tp, name)
	if !ok {
		return false
	}
	b, _ := s.heap.get(p.Obj).cell(int(p.Off)).(bool)
	return b
}

func (t *thread) testBool(tp Pointer, name string) bool { return t.s.testBoolOf(tp, name) }

func (t *thread) testSetBool(tp Pointer, name string, v bool) {
	if p, _, ok := t.testCell(tp, name); ok {
		t.setCell(p, 0, v)
	}
}

// testRelease and testAcquire order the race detector's clocks through
// the field name of the testing.T at tp (the channel Go's testing package
// synchronizes on).
func (t *thread) testRelease(tp Pointer, name string) {
	if p, _, ok := t.testCell(tp, name); ok {
		t.raceRelease(p)
	}
}

func (t *thread) testAcquire(tp Pointer, name string) {
	if p, _, ok := t.testCell(tp, name); ok {
		t.raceAcquire(p)
	}
}

// subtestGuard: a parent in t.Run goes on when its subtest ended or
// called t.Parallel.
func (s *State) subtestGuard(sub Pointer) bool {
	return s.testBoolOf(sub, "done") || s.testBoolOf(sub, "isParallel")
}
