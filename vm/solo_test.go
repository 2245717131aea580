package vm_test

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/gmc-go/gmc/guide"
	"github.com/gmc-go/gmc/vm"
	"github.com/gmc-go/gmc/vm/load"
	"github.com/gmc-go/gmc/vm/trace"
)

// TestSolo: a released parallel subtest that shares nothing runs alone
// to its end (Machine.Solo), one that shares a mutex, a channel or a
// variable with its siblings does not; the exhaustive search then proves
// a table of 24 independent leaves in a few hundred states (2^24 subsets
// of finished leaves without), and still finds the failures that depend
// on the leaves' order, the race between them and the failure of one
// independent leaf, each replaying to the same error. Two leaves that
// log in a package that does not import fmt do not race on fmt's
// initializer (run before the test, as testing's import). A parallel
// subtest that runs sequential subtests of its own runs alone with them
// (its subtree), unless they share with the other subtrees (a race).
func TestSolo(t *testing.T) {
	prog, err := load.Load(load.Config{Dir: filepath.Join("testdata", "parlog")})
	if err != nil {
		t.Fatal(err)
	}
	opts := vm.Options{Sched: vm.SchedSync, Checks: vm.Checks{Leak: true, Race: true}, Sanity: true}
	for _, c := range []struct {
		entry string
		solo  bool    // the first released subtest runs alone
		kind  vm.Kind // the error the search finds ("": none, exhausted)
	}{
		{"TestParallelLog", true, ""},
		{"TestParallelTable", true, ""},
		{"TestFailParallelOne", true, vm.KindAssert},
		{"TestFailParallelLast", false, vm.KindAssert},
		{"TestFailParallelToken", false, vm.KindAssert},
		{"TestFailParallelShared", false, vm.KindRace},
		// a parallel subtest that runs subtests of its own: the subtree
		{"TestNestedTable", true, ""},
		{"TestFailNestedShared", false, vm.KindRace},
		// a nested table of parallel leaves: each leaf alone within its
		// subtree; leaves sharing within it are still interleaved
		{"TestNestedParallelTable", true, ""},
		{"TestFailNestedOrder", false, vm.KindAssert},
	} {
		t.Run(c.entry, func(t *testing.T) {
			m := vm.New(prog, opts)
			e, err := m.FindEntry(c.entry)
			if err != nil {
				t.Fatal(err)
			}
			s, g := m.Start(e), 0
			for g == 0 && s.Err() == nil && !s.Exited() {
				for _, id := range s.GoroutineIDs() {
					if s.SoloCandidate(id) {
						g = id
						break
					}
				}
				if g == 0 {
					s = m.Step(s, 0)
				}
			}
			if g == 0 {
				t.Fatal("no released parallel subtest on the first path")
			}
			if ok, why := m.Solo(s, g, 0); ok != c.solo {
				t.Errorf("Solo(goroutine %d) = %v (%s), want %v", g, ok, why, c.solo)
			}
			res := guide.Search(t.Context(), m, e, guide.Config{Strategy: guide.Exhaustive, MaxStates: 20000, TimeLimit: time.Minute})
			if c.kind == "" {
				if res.Verdict != guide.VerdictNoError || !res.Exhausted {
					msg := ""
					if res.Final != nil {
						msg = errString(res.Final.Err())
					}
					t.Fatalf("verdict %s (exhausted %v, %d states) %s, want no error, exhausted", res.Verdict, res.Exhausted, res.Stats.States, msg)
				}
				return
			}
			if res.Verdict != guide.VerdictError || res.Final.Err().Kind != c.kind {
				t.Fatalf("verdict %s %s, want a %s error", res.Verdict, errString(res.Final.Err()), c.kind)
			}
			fin, _, err := trace.Replay(m, e, res.Choices, nil)
			if err != nil || fin.Err() == nil || fin.Err().Msg != res.Final.Err().Msg {
				t.Fatalf("replay: %v, %s; want %s", err, errString(fin.Err()), res.Final.Err().Msg)
			}
		})
	}
}
