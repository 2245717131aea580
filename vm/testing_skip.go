package vm

import (
	"slices"
	"sync"
)

// Skipped tests, as go test decides them: t.SkipNow (and t.Skip, t.Skipf,
// b.Skip, f.Skip, which log their message first) marks the T skipped
// (testing.common.skipped, which t.Skipped reads) and ends its goroutine
// with runtime.Goexit. The test is reported SKIP when the T the test runs
// with skipped and the test did not fail: a subtest that skips is its own
// SKIP line, not its parent's, and a t.Skip inside f.Fuzz's function
// skips that input's run, not the fuzz target. An execution of a test
// entry is skipped when the entry's own T (testState.entryT) skipped and
// the test did not fail (State.Skipped); Options.Ends tallies how the
// executions of a search ended, so that the search can report that every
// one of them skipped.

func init() {
	for _, recv := range []string{"(*testing.common)", "(*testing.T)"} {
		def(recv+".Skipped", testSkipped)
	}
}

// testSkipped is t.Skipped: whether the T at args[0] skipped.
func testSkipped(t *thread, args []Value) (Value, ctl) {
	return t.testBool(ptrArg(args[0]), "skipped"), ctlNext
}

// testSkipNow is t.SkipNow: the T is marked skipped and the test's
// goroutine exits.
func testSkipNow(t *thread, args []Value) (Value, ctl) {
	t.testMarkSkipped(args[0])
	t.g.top.pc++
	return nil, t.goexit(t.g.top)
}

// testMarkSkipped marks the *testing.T (or *testing.common, *testing.F)
// receiver v skipped, and the entry's execution skipped when v is the T
// the entry runs with.
func (t *thread) testMarkSkipped(v Value) {
	tp := ptrArg(v)
	if tp.Obj == 0 {
		return
	}
	t.testSetBool(tp, "skipped", true)
	ts := t.s.test
	if _, mock := t.mockTest(v); mock || ts == nil || ts.entryT != tp.Obj || ts.skip {
		return
	}
	nts := *ts
	nts.skip = true
	t.s.test = &nts
}

// Skipped reports whether the execution that reached s skipped its test:
// the entry's T called SkipNow and the test has not failed (go test's
// SKIP). A state whose test has not skipped (yet) reports false.
func (s *State) Skipped() bool {
	return s.test != nil && s.test.skip && !s.test.failed
}

// TestLog returns the lines the test logged ("file.go:12: message", as go
// test prints them indented), nil outside a test entry.
func (s *State) TestLog() []string {
	if s.test == nil {
		return nil
	}
	return slices.Clone(s.test.log)
}

// Ends tallies how the executions of test entries ended (Options.Ends):
// the machines of one search share one, and each execution whose entry
// returned (or whose TestMain exited with status 0) is counted, with
// whether it skipped. An execution cut by a bound or ended by an error
// before its entry returned is not counted.
type Ends struct {
	mu      sync.Mutex
	ended   int
	skipped int
	skipLog []string // the test's log in the first skipped execution
}

// record counts the execution that reached s, whose entry has ended.
func (e *Ends) record(s *State) {
	if e == nil || s.test == nil {
		return
	}
	skipped := s.Skipped()
	e.mu.Lock()
	defer e.mu.Unlock()
	e.ended++
	if skipped {
		if e.skipped == 0 {
			e.skipLog = slices.Clone(s.test.log)
		}
		e.skipped++
	}
}

// AllSkipped reports whether at least one execution ended and every one
// that ended skipped, with the test's log in the first of them.
func (e *Ends) AllSkipped() (log []string, ok bool) {
	if e == nil {
		return nil, false
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.ended == 0 || e.skipped != e.ended {
		return nil, false
	}
	return slices.Clone(e.skipLog), true
}

// Counts returns the executions that ended and those of them that
// skipped.
func (e *Ends) Counts() (ended, skipped int) {
	if e == nil {
		return 0, 0
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.ended, e.skipped
}
