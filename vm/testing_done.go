package vm

// A test's T is done once its runner has returned: the test function,
// its parallel subtests and its cleanups have ended (testing's c.done,
// set at the end of tRunner). go test panics when a goroutine the test
// left behind fails it then — "Fail in goroutine after TestX has
// completed" — whether by t.Fail, t.Error or t.Fatal (t.Log goes to a
// parent still running: no panic for a test's own goroutine). The VM
// marks the T's done field when its runner returns (testRunnerStep) and
// the natives of failing check it: a test whose goroutine may still fail
// it after it returned is found with the schedule that lets it.

// markTestDone marks the T at tp done (its runner has returned).
func (t *thread) markTestDone(tp Pointer) {
	if p, _, ok := t.testCell(tp, "done"); ok {
		t.setCell(p, 0, true)
	}
}

// failAfterDone is the panic of a failing call on the VM's T at tp once it
// is done (ctlNext: the call goes on, the T is not done or is the
// program's own, testing_mock.go).
func (t *thread) failAfterDone(tp Pointer) ctl {
	if tp.Obj == 0 {
		return ctlNext
	}
	if _, mock := t.mockTest(tp); mock {
		return ctlNext
	}
	p, _, ok := t.testCell(tp, "done")
	if !ok {
		return ctlNext
	}
	if done, _ := t.cell(p, 0).(bool); !done {
		return ctlNext
	}
	return t.stringPanic("Fail in goroutine after " + t.testNameOf(tp) + " has completed")
}
