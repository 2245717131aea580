package check

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gmc-go/gmc/guide"
	"github.com/gmc-go/gmc/heuristics"
	"github.com/gmc-go/gmc/vm"
	"github.com/gmc-go/gmc/vm/load"
)

// TestSkipVerdict: gmc check's pipeline gives the verdict skip, with the
// bound of the search and the skip message, to a test that skipped in
// every execution (vm/testdata/skip); an error in any execution wins (a
// test that skips in one schedule and fails or races in another), and a
// test that skips in some schedules and passes in the others, or whose
// subtest skips, has no error.
func TestSkipVerdict(t *testing.T) {
	prog, err := load.Load(load.Config{Dir: filepath.Join("..", "..", "vm", "testdata", "skip")})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		entry, verdict string
		want           string // the skip message, or the error kind
	}{
		{"TestSkipAlways", guide.VerdictSkip, "skip_test.go:13: not on this machine"},
		{"TestSkipAfterGoroutine", guide.VerdictSkip, "skip_test.go:44: after the goroutine"},
		{"FuzzSkipF", guide.VerdictSkip, "skip_test.go:74: no fuzzing here"},
		{"TestFailOrSkip", guide.VerdictError, string(vm.KindAssert)},
		{"TestRaceUnlessSkipped", guide.VerdictError, string(vm.KindRace)},
		{"TestMixedSkipSometimes", guide.VerdictNoError, ""},
		{"TestPassSubtestSkips", guide.VerdictNoError, ""},
	} {
		t.Run(c.entry, func(t *testing.T) {
			m := vm.New(prog, vm.Options{Checks: vm.Checks{Leak: true, Race: true}})
			e, err := m.FindEntry(c.entry)
			if err != nil {
				t.Fatal(err)
			}
			o, err := Search(context.Background(), Prepared{Prog: prog, M: m, Entry: e},
				Config{Strategy: guide.Guided, Heuristic: heuristics.SecPFSM, Seed: 1, Trials: 1, Parallel: 1,
					TimeLimit: 20 * time.Second, Depth: 100000, MaxBacktrack: 100000})
			if err != nil {
				t.Fatal(err)
			}
			r := o.Report
			if r.Verdict != c.verdict {
				t.Fatalf("verdict %s (error %+v), want %s", r.Verdict, r.Error, c.verdict)
			}
			switch c.verdict {
			case guide.VerdictSkip:
				if r.Skip == nil || len(r.Skip.Log) == 0 || r.Skip.Log[len(r.Skip.Log)-1] != c.want {
					t.Errorf("skip %+v, want the message %q", r.Skip, c.want)
				}
				if r.Bound == nil || !r.Bound.Exhausted || r.Stats.States < 1 {
					t.Errorf("bound %+v, %v states; want exhausted, the states counted", r.Bound, r.Stats.States)
				}
			case guide.VerdictError:
				if r.Error == nil || r.Error.Kind != c.want || !o.Replayed || r.Skip != nil {
					t.Errorf("error %+v (replayed %v, skip %+v), want a %s that replays", r.Error, o.Replayed, r.Skip, c.want)
				}
			default:
				if r.Skip != nil || r.Bound == nil || !r.Bound.Exhausted {
					t.Errorf("skip %+v, bound %+v; want no skip, exhausted", r.Skip, r.Bound)
				}
			}
			if c.verdict == guide.VerdictError && strings.Contains(r.Error.Message, "the goroutine sent first") {
				t.Errorf("the error is the skip's: %s", r.Error.Message)
			}
		})
	}
}
