package vm

// A *testing.T the program makes itself (mockT := new(testing.T), as
// testify's own tests do to check that an assertion fails) is not a test
// the VM runs: in go test, its Error, Errorf and Fail mark that T failed
// (its Failed then reports true) and its Log and Logf keep the line in
// its own output, which nothing prints; the running test is not touched.
// The VM tells its own T's apart by testing.common.runner, which go test's
// tRunner sets and runTest sets the same way (a T made with new has it
// empty). Fatal, FailNow and Skip on such a T end the calling goroutine
// with runtime.Goexit, as Go's do, and stay as they were: the running
// test fails (go test: "test executed panic(nil) or runtime.Goexit").

// vmRunner is the runner of the T's the VM runs tests with.
const vmRunner = "testing.tRunner"

// markRunner records that the *testing.T at tp runs a test of the VM's.
func (t *thread) markRunner(tp Pointer) {
	if tp.Obj == 0 {
		return
	}
	if p, _, ok := t.testCell(tp, "runner"); ok {
		t.setCell(p, 0, vmRunner)
	}
}

// mockTest returns the *testing.T (or *testing.common) receiver v when it
// is one the program made itself, not one the VM runs a test with.
func (t *thread) mockTest(v Value) (Pointer, bool) {
	tp := ptrArg(v)
	if tp.Obj == 0 {
		return tp, false
	}
	p, _, ok := t.testCell(tp, "runner")
	if !ok {
		return tp, false
	}
	s, _ := t.cell(p, 0).(string)
	return tp, s != vmRunner
}

// mockFail marks the program's own T at tp failed.
func (t *thread) mockFail(tp Pointer) {
	if p, _, ok := t.testCell(tp, "failed"); ok {
		t.setCell(p, 0, true)
	}
}

// mockFailed is Failed of the program's own T at tp.
func (t *thread) mockFailed(tp Pointer) bool {
	if p, _, ok := t.testCell(tp, "failed"); ok {
		b, _ := t.cell(p, 0).(bool)
		return b
	}
	return false
}
