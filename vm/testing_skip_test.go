package vm_test

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gmc-go/gmc/guide"
	"github.com/gmc-go/gmc/vm"
	"github.com/gmc-go/gmc/vm/load"
)

// TestSkippedExecutions: an execution is skipped when the T the entry runs
// with called SkipNow (t.Skip, t.Skipf, f.Skip) and the test did not fail,
// as go test reports SKIP (testdata/skip, whose go test -v output the
// cases restate): a subtest's or a fuzz input's skip does not skip the
// entry, a failure before or after the skip wins, and a test that skips
// in some schedules only has executions of both kinds. Options.Ends
// counts the executions that ended.
func TestSkippedExecutions(t *testing.T) {
	prog, err := load.Load(load.Config{Dir: filepath.Join("testdata", "skip")})
	if err != nil {
		t.Fatal(err)
	}
	mprog, err := load.Load(load.Config{Dir: filepath.Join("testdata", "skipmain")})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		prog  *load.Program
		entry string
		// every: every execution skipped; some: some did; fails: the
		// failure's message
		every, some bool
		log         string // the first skipped execution's last log line
		fails       string
	}{
		{prog, "TestSkipAlways", true, true, "skip_test.go:13: not on this machine", ""},
		{prog, "TestSkipNow", true, true, "skip_test.go:16: before", ""},
		{prog, "TestSkipfHelper", true, true, "skip_test.go:27: skipping: no network", ""},
		{prog, "TestSkipSkippedInCleanup", true, true, "skip_test.go:36: short", ""},
		{prog, "TestSkipAfterGoroutine", true, true, "skip_test.go:44: after the goroutine", ""},
		{prog, "FuzzSkipF", true, true, "skip_test.go:74: no fuzzing here", ""},
		{mprog, "TestSkipUnderMain", true, true, "skipmain_test.go:12: skipped under TestMain", ""},
		{prog, "TestMixedSkipSometimes", false, true, "", ""},
		{prog, "TestPassSubtestSkips", false, false, "", ""},
		{prog, "FuzzPassInner", false, false, "", ""},
		{mprog, "TestPassUnderMain", false, false, "", ""},
		{prog, "TestFailThenSkip", false, false, "", "failed first"},
		{prog, "TestFailSubtestAfterSkip", false, false, "", "b fails"},
	} {
		t.Run(c.entry, func(t *testing.T) {
			ends := &vm.Ends{}
			m := vm.New(c.prog, vm.Options{Checks: vm.Checks{Leak: true, Race: true}, Sanity: true, Ends: ends})
			e, err := m.FindEntry(c.entry)
			if err != nil {
				t.Fatal(err)
			}
			res := guide.Search(t.Context(), m, e, guide.Config{Strategy: guide.DFS, MaxStates: 100000})
			if c.fails != "" {
				if res.Verdict != guide.VerdictError || !strings.Contains(res.Final.Err().Msg, c.fails) {
					t.Fatalf("verdict %s %s, want a failure logging %q", res.Verdict, finalErr(res), c.fails)
				}
				if res.Final.Skipped() {
					t.Error("a failed test's execution is skipped")
				}
				return
			}
			if res.Verdict != guide.VerdictNoError {
				t.Fatalf("verdict %s %s", res.Verdict, finalErr(res))
			}
			ended, skipped := ends.Counts()
			log, every := ends.AllSkipped()
			if ended == 0 || every != c.every || (skipped > 0) != c.some {
				t.Fatalf("%d executions ended, %d skipped, all skipped %v; want every %v, some %v", ended, skipped, every, c.every, c.some)
			}
			if c.every && (len(log) == 0 || log[len(log)-1] != c.log) {
				t.Errorf("skip log %q, want it to end with %q", log, c.log)
			}
		})
	}
}

// TestFuzzInputFails: t.Errorf in the fuzz function fails the fuzz target
// (the input's T is one the VM runs, not one the program made): the
// symbolic search finds the input 7.
func TestFuzzInputFails(t *testing.T) {
	prog, err := load.Load(load.Config{Dir: filepath.Join("testdata", "skip")})
	if err != nil {
		t.Fatal(err)
	}
	m := vm.New(prog, vm.Options{Symbolic: true})
	e, err := m.FindEntry("FuzzFailInner")
	if err != nil {
		t.Fatal(err)
	}
	res := guide.Search(t.Context(), m, e, guide.Config{Strategy: guide.DFS, MaxStates: 10000})
	if res.Verdict != guide.VerdictError || !strings.Contains(res.Final.Err().Msg, "bad input 7") {
		t.Fatalf("verdict %s %s, want the failure of input 7", res.Verdict, finalErr(res))
	}
	if log := res.Final.TestLog(); !slices.Contains(log, "skip_test.go:87: bad input 7") {
		t.Errorf("test log %q", log)
	}
}

// finalErr describes the error of a search's final state ("" without one).
func finalErr(res guide.Result) string {
	if res.Final == nil {
		return ""
	}
	return errString(res.Final.Err())
}
