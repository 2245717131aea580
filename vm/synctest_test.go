package vm_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/gmc-go/gmc/guide"
	"github.com/gmc-go/gmc/vm"
	"github.com/gmc-go/gmc/vm/load"
)

// TestSynctestBubble: testdata/synctest's tests run in testing/synctest
// bubbles (package testing/synctest from its source) with the outcome go
// test -race gives, in every interleaving, with the leak and race checks
// on: the bubble's clock (Sleep, a deadline, a ticker) passes only when
// the bubble is blocked, Wait returns once the rest of the bubble is
// blocked and orders what it did before; a failure inside fails the test
// with Go's message; a bubble whose root returned with a goroutine blocked
// forever, a bubble all blocked, and Wait outside a bubble panic as Go
// does. The passing tests
// also pass under real time (StepTime) and with timers firing at any point
// (TimerChoice): a bubble's timing holds whatever the machine's speed.
func TestSynctestBubble(t *testing.T) {
	prog, err := load.Load(load.Config{Dir: filepath.Join("testdata", "synctest")})
	if err != nil {
		t.Fatal(err)
	}
	if !prog.Interpreted("testing/synctest") {
		t.Error("testing/synctest is not interpreted")
	}
	for _, c := range []struct {
		entry string
		kind  vm.Kind // "" for a passing test
		msg   string  // what go test prints for the failure
	}{
		{"TestSleepAndWait", "", ""},
		{"TestWaitOrders", "", ""},
		{"TestDeadlineAndTicker", "", ""},
		{"TestCleanupInBubble", "", ""},
		{"TestFailsInside", vm.KindAssert, "--- FAIL: TestFailsInside\n    synctest_test.go:112: failed at 01:00:00"},
		{"TestFailsDeadlock", vm.KindPanic, "panic: deadlock: main bubble goroutine has exited but blocked goroutines remain"},
		{"TestFailsAllBlocked", vm.KindPanic, "panic: deadlock: all goroutines in bubble are blocked"},
		{"TestFailsWaitOutside", vm.KindPanic, "panic: goroutine is not in a bubble"},
	} {
		t.Run(c.entry, func(t *testing.T) {
			opts := vm.Options{Checks: vm.Checks{Leak: true, Race: true}, Sanity: true}
			search := func(opts vm.Options) guide.Result {
				m := vm.New(prog, opts)
				e, err := m.FindEntry(c.entry)
				if err != nil {
					t.Fatal(err)
				}
				return guide.Search(t.Context(), m, e, guide.Config{Strategy: guide.Exhaustive, MaxStates: 20000})
			}
			res := search(opts)
			if c.kind == "" {
				if res.Verdict != guide.VerdictNoError {
					t.Fatalf("verdict %s %s", res.Verdict, errString(res.Final.Err()))
				}
				step, anyTime := opts, opts
				step.StepTime, anyTime.TimerChoice = 1000, true
				for _, o := range []vm.Options{step, anyTime} {
					if res := search(o); res.Verdict == guide.VerdictError {
						t.Fatalf("timing %s: %s", o.Timing(), errString(res.Final.Err()))
					}
				}
				return
			}
			if res.Verdict != guide.VerdictError || res.Final.Err().Kind != c.kind || !strings.HasPrefix(res.Final.Err().Msg, c.msg) {
				t.Fatalf("verdict %s %s, want %s %q", res.Verdict, errString(res.Final.Err()), c.kind, c.msg)
			}
		})
	}
}
