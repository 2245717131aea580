package vm_test

import (
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/gmc-go/gmc/guide"
	"github.com/gmc-go/gmc/vm"
	"github.com/gmc-go/gmc/vm/load"
)

// testingProg loads testdata/testing once for the tests that use it.
var testingProg = sync.OnceValues(func() (*load.Program, error) {
	return load.Load(load.Config{Dir: filepath.Join("testdata", "testing")})
})

// TestTestingRunner: tests run as testing.tRunner runs them — cleanups
// last first after the test (and after FailNow/SkipNow, which end only
// their own test or subtest), t.Context canceled before the cleanups,
// parallel subtests after their parent's function returned (its deferred
// calls included) and concurrently with each other — in every
// interleaving, with the leak check on; a failing test is reported with
// what its cleanup logged; t.Logf, t.Errorf and t.Fatal format with fmt
// run from source (a String method that waits for another goroutine
// works); runtime.Callers shows testing.tRunner below a test (zap).
func TestTestingRunner(t *testing.T) {
	prog, err := testingProg()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		entry string
		fails string // the failure's message, "" for a passing test
	}{
		{"TestCleanupStopsServer", ""},
		{"TestCleanupOrder", ""},
		{"TestContextCanceledBeforeCleanup", ""},
		{"TestSkipNowEndsSubtest", ""},
		{"TestFailNowRunsCleanup", "cleanup ran"},
		{"TestFailAfterSkippedSubtest", "after the subtest"},
		{"TestParallelAfterParent", ""},
		{"TestDeadlineAndAttr", ""},
		{"TestSubtestNames", ""},
		{"TestGoroutinesAsGoTest", ""},
		{"TestCallersAsGoTest", ""},
		{"TestCallerPastTheTest", ""},
		{"TestFailParallelAfterDefer", "--- FAIL: TestFailParallelAfterDefer\n    testing_test.go:99: closed before the parallel subtest ran"},
		// t.Logf, t.Errorf and t.Fatal format with fmt run from source
		{"TestLogfBlockingString", ""},
		{"TestFailErrorfBlockingString", "--- FAIL: TestFailErrorfBlockingString\n    logformat_test.go:27: got 8 and e"},
		{"TestFailFatalWrapped", "--- FAIL: TestFailFatalWrapped\n    logformat_test.go:34: outer: inner: unsupported operation true 3"},
		// t.Helper: a failure is at the line of the helper's caller (pkg/errors' testFormatRegexp)
		{"TestFailHelperLines", "--- FAIL: TestFailHelperLines\n    logformat_test.go:63: got 3, want 4\n    logformat_test.go:64: got 5, want 1\n    logformat_test.go:55: got 6, want 2"},
		// a generic function's instance and a range-over-func loop body are
		// frames of their own (they were skipped as synthetic), a wrapper is not
		{"TestFailGenericAndRangeLines", "--- FAIL: TestFailGenericAndRangeLines\n    logformat_test.go:88: got a, want b\n    logformat_test.go:79: generic 7\n    logformat_test.go:91: in the loop 1"},
	} {
		t.Run(c.entry, func(t *testing.T) { checkTestEntry(t, prog, c.entry, c.fails) })
	}
	// parallel siblings run concurrently
	m := vm.New(prog, vm.Options{Checks: vm.Checks{Leak: true, Race: true}, Sanity: true})
	e, err := m.FindEntry("TestFailParallelRace")
	if err != nil {
		t.Fatal(err)
	}
	res := guide.Search(t.Context(), m, e, guide.Config{Strategy: guide.Exhaustive, MaxStates: 100000})
	if res.Verdict != guide.VerdictError || res.Final.Err().Kind != vm.KindRace || !strings.Contains(res.Final.Err().Msg, "testing_test.go:111") {
		t.Fatalf("TestFailParallelRace: verdict %s %s, want the race on n", res.Verdict, errString(res.Final.Err()))
	}
}

// TestAllocsPerRun: testing.AllocsPerRun's result is the gc compiler's
// escape analysis, which gmc does not model: a test asserting it stops
// there, not checked, with the call named (go.uber.org/multierr's
// TestCombineGoodCaseNoAlloc), never a verdict; so does a test that
// counts allocations with runtime.ReadMemStats.
func TestAllocsPerRun(t *testing.T) {
	prog, err := testingProg()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ entry, msg string }{
		{"TestAllocsNotModelled", "testing.AllocsPerRun (an allocation count is the gc compiler's escape analysis"},
		// runtime.ReadMemStats called where Mallocs is read (ttlcache)
		{"TestMallocsNotModelled", "runtime.MemStats's allocation counts"},
	} {
		m := vm.New(prog, vm.Options{Checks: vm.Checks{Leak: true, Race: true}})
		e, err := m.FindEntry(c.entry)
		if err != nil {
			t.Fatal(err)
		}
		res := guide.Search(t.Context(), m, e, guide.Config{Strategy: guide.Exhaustive, MaxStates: 1000})
		if got := res.Final.Err(); got == nil || got.Kind != vm.KindUnsupported || !strings.Contains(got.Msg, c.msg) {
			t.Fatalf("%s: verdict %s %s, want unsupported %s", c.entry, res.Verdict, errString(got), c.msg)
		}
	}
}

// TestTestMain: with a TestMain, the entry runs as go test runs it —
// TestMain(m), whose m.Run runs the test — so what TestMain sets up is
// seen (no false failure), and a failing test under os.Exit(m.Run()) is
// reported with its own message, not as an exit status; a TestMain of the
// external test package runs the package's own tests too (goleak's
// VerifyTestMain: false nil dereference in ReneKroon/ttlcache/v2).
func TestTestMain(t *testing.T) {
	prog, err := load.Load(load.Config{Dir: filepath.Join("testdata", "testmain")})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ entry, fails string }{
		{"TestSetup", ""},
		{"TestParallelSubtests", ""},
		{"TestFails", "boom 1"},
		{"TestSubtestCallers", ""},
		{"TestTopCallers", ""},
	} {
		t.Run(c.entry, func(t *testing.T) { checkTestEntry(t, prog, c.entry, c.fails) })
	}
	// a TestMain in the external test package runs a test of the package
	// itself, with both packages initialized
	xprog, err := load.Load(load.Config{Dir: filepath.Join("testdata", "xtestmain")})
	if err != nil {
		t.Fatal(err)
	}
	checkTestEntry(t, xprog, "TestInternal", "")
}

// TestContextWithoutImport: t.Context() in a test that does not import
// context ends without a false "missing cancel error" panic (context's
// initializer runs before the test package's).
func TestContextWithoutImport(t *testing.T) {
	prog, err := load.Load(load.Config{Dir: filepath.Join("testdata", "testctx")})
	if err != nil {
		t.Fatal(err)
	}
	checkTestEntry(t, prog, "TestContextOnly", "")
}

// TestTestingFlags: testing's flags are registered before the test runs,
// as go test's main registers them (testdata/testflags reads
// test.failfast, test.short, test.timeout, test.v and test.run back with
// flag.Lookup; testify's suite tests dereferenced a nil *flag.Flag).
func TestTestingFlags(t *testing.T) {
	prog, err := load.Load(load.Config{Dir: filepath.Join("testdata", "testflags")})
	if err != nil {
		t.Fatal(err)
	}
	checkTestEntry(t, prog, "TestFlags", "")
}

// checkTestEntry searches entry of prog exhaustively, with the leak and
// race checks on, and asserts no error (fails == "") or a failure that
// logged fails.
func checkTestEntry(t *testing.T, prog *load.Program, entry, fails string) {
	t.Helper()
	m := vm.New(prog, vm.Options{Checks: vm.Checks{Leak: true, Race: true}, Sanity: true})
	e, err := m.FindEntry(entry)
	if err != nil {
		t.Fatal(err)
	}
	res := guide.Search(t.Context(), m, e, guide.Config{Strategy: guide.Exhaustive, MaxStates: 100000})
	if fails == "" {
		if res.Verdict != guide.VerdictNoError {
			t.Fatalf("verdict %s %s", res.Verdict, errString(res.Final.Err()))
		}
		return
	}
	if res.Verdict != guide.VerdictError || res.Final.Err().Kind != vm.KindAssert || !strings.Contains(res.Final.Err().Msg, fails) {
		t.Fatalf("verdict %s %s, want a failure logging %q", res.Verdict, errString(res.Final.Err()), fails)
	}
}

// TestMockT: Error, Errorf, Fail and Failed on a *testing.T the test made
// itself (new(testing.T), as testify's own tests check a failing
// assertion) act on that T, not on the running test, as in go test
// (testdata/mockt: TestMockT passes there, TestMockTRealFailure fails at
// the same line).
func TestMockT(t *testing.T) {
	prog, err := load.Load(load.Config{Dir: filepath.Join("testdata", "mockt")})
	if err != nil {
		t.Fatal(err)
	}
	checkTestEntry(t, prog, "TestMockT", "")
	checkTestEntry(t, prog, "TestMockTRealFailure", "mockt_test.go:59: not equal: 3 != 4")
}

// TestShortFlag: testing.Short reports true, as under go test -short,
// unless the program's arguments say -test.short=false (then the long
// part of testdata/testing's TestFailLongPart runs and fails).
func TestShortFlag(t *testing.T) {
	prog, err := testingProg()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args  []string
		fails bool
	}{{nil, false}, {[]string{"-test.short=false"}, true}, {[]string{"-test.v", "--test.short=false", "-test.short"}, false}} {
		m := vm.New(prog, vm.Options{Args: c.args})
		e, err := m.FindEntry("TestFailLongPart")
		if err != nil {
			t.Fatal(err)
		}
		res := guide.Search(t.Context(), m, e, guide.Config{Strategy: guide.Exhaustive, MaxStates: 1000})
		failed := res.Verdict == guide.VerdictError && strings.Contains(res.Final.Err().Msg, "the long part ran")
		if failed != c.fails || (!failed && res.Verdict != guide.VerdictNoError) {
			t.Errorf("args %q: verdict %s %s, want failed %v", c.args, res.Verdict, errString(res.Final.Err()), c.fails)
		}
	}
}
