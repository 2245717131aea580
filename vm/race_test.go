package vm_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gmc-go/gmc/guide"
	"github.com/gmc-go/gmc/vm"
	"github.com/gmc-go/gmc/vm/load"
	"github.com/gmc-go/gmc/vm/trace"
)

// TestRaceDetector: racy programs are reported with both accesses; the
// race-free ones (mutex, channel handoff, WaitGroup, Once, timers) never are, in
// any interleaving (exhaustive search).
func TestRaceDetector(t *testing.T) {
	cases := []struct {
		name string
		racy bool
	}{
		{"racy", true},
		{"racyslice", true},
		{"mutex", false},
		{"chanhandoff", false},
		{"waitgroup", false},
		{"once", false},
		{"zerosize", false},
		{"afterfunc", false},
		{"afterfuncracy", true},
		{"merged", true},
		{"namedresult", false},
		{"namedresultracy", true},
		{"retired", false},
		{"retiretimer", true},
		{"retirepartial", true},
		{"plainthenatomic", true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m, e := machine(t, "race/"+c.name, vm.Options{Checks: vm.Checks{Race: true}, Sanity: true})
			res := guide.Search(t.Context(), m, e, guide.Config{Strategy: guide.Exhaustive, MaxStates: 200000})
			if !c.racy {
				if res.Verdict != guide.VerdictNoError {
					msg := ""
					if res.Final != nil {
						msg = res.Final.Err().Msg
					}
					t.Fatalf("race-free program: verdict %s %s", res.Verdict, msg)
				}
				return
			}
			if res.Verdict != guide.VerdictError || res.Final.Err().Kind != vm.KindRace {
				t.Fatalf("racy program: verdict %s", res.Verdict)
			}
			err := res.Final.Err()
			if !strings.Contains(err.Msg, "WARNING: DATA RACE") || !strings.Contains(err.Msg, "Previous ") || len(err.Goroutines) != 2 {
				t.Errorf("race report lacks both accesses:\n%s", err.Msg)
			}
			if err.Goroutines[0].ID == err.Goroutines[1].ID {
				t.Errorf("both accesses by goroutine %d", err.Goroutines[0].ID)
			}
		})
	}
}

// TestMemoryModel: each rule of the memory model the race detector
// implements (testdata/race/memmodel, one test per rule, named as in Go's
// race suite): every TestRace* is reported as a race and replays; no
// TestNoRace* is reported in any interleaving (exhaustive search), with
// scheduling points at shared accesses and at synchronizations only.
func TestMemoryModel(t *testing.T) {
	dir := filepath.Join("testdata", "race", "memmodel")
	f, err := parser.ParseFile(token.NewFileSet(), filepath.Join(dir, "memmodel_test.go"), nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	prog, err := load.Load(load.Config{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || !strings.HasPrefix(fd.Name.Name, "Test") {
			continue
		}
		name := fd.Name.Name
		for _, sched := range []vm.SchedMode{vm.SchedShared, vm.SchedSync} {
			memoryModelCase(t, prog, name, sched)
		}
	}
}

// TestRaceAlone: a goroutine running alone remembers no access, but what
// goroutines that ended unordered with it did stays remembered
// (testdata/race/alone; vm's aloneForRace).
func TestRaceAlone(t *testing.T) {
	memoryModelCases(t, "alone", "RaceReadAfterEndedReader", "NoRaceAtomicObservedAlone", "NoRaceAloneThenShared", "RaceAloneThenUnordered")
}

// TestRacePacked: the race detector's accesses to the elements of packed
// arrays are per element (testdata/race/packed): neighbouring bytes and
// words written by two goroutines do not race, the same word or a byte
// copy writes does.
func TestRacePacked(t *testing.T) {
	memoryModelCases(t, "packed", "NoRacePackedNeighbours", "RacePackedWord", "RacePackedCopy")
}

// TestRaceRangeArray: a range over an array with an index variable only
// reads no memory, as gc compiles it (testdata/race/rangearray: a false
// race with atomic counters in coocood/freecache's TestRace); with a
// value variable, even blank, it reads every element, as go run -race
// reports.
func TestRaceRangeArray(t *testing.T) {
	memoryModelCases(t, "rangearray", "NoRaceRangeArrayIndex", "RaceRangeArrayBlankValue", "RaceRangeArrayValue")
}

// TestRaceReturn: a return into an escaping named result writes it unless
// it returns the result itself, as gc compiles it (testdata/race/results).
func TestRaceReturn(t *testing.T) {
	prog, err := load.Load(load.Config{Dir: filepath.Join("testdata", "race", "results")})
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"NoRaceReturnSelf", "RaceReturnOther"} {
		for _, sched := range []vm.SchedMode{vm.SchedShared, vm.SchedSync} {
			memoryModelCase(t, prog, name, sched)
		}
	}
}

// memoryModelCase checks entry name (racy unless named [Test]NoRace...)
// under a scheduling mode (the exhaustive searches of gmc check run with
// sync-only scheduling points when races are errors: guide/syncpoints.go):
// a racy case must report a race that replays, a race-free one must end
// without error.
// memoryModelCases runs memoryModelCase on the named functions of
// testdata/race/dir under both scheduling modes.
func memoryModelCases(t *testing.T, dir string, names ...string) {
	t.Helper()
	prog, err := load.Load(load.Config{Dir: filepath.Join("testdata", "race", dir)})
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range names {
		for _, sched := range []vm.SchedMode{vm.SchedShared, vm.SchedSync} {
			memoryModelCase(t, prog, name, sched)
		}
	}
}

func memoryModelCase(t *testing.T, prog *load.Program, name string, sched vm.SchedMode) {
	label := name
	if sched == vm.SchedSync {
		label += "/sync"
	}
	t.Run(label, func(t *testing.T) {
		m := vm.New(prog, vm.Options{Sched: sched, Checks: vm.Checks{Race: true}, Sanity: true})
		e, err := m.FindEntry(name)
		if err != nil {
			t.Fatal(err)
		}
		res := guide.Search(t.Context(), m, e, guide.Config{Strategy: guide.Exhaustive, MaxStates: 100000})
		if strings.HasPrefix(strings.TrimPrefix(name, "Test"), "NoRace") {
			if res.Verdict != guide.VerdictNoError {
				msg := ""
				if res.Final != nil && res.Final.Err() != nil {
					msg = res.Final.Err().Msg
				}
				t.Fatalf("race-free test: verdict %s %s", res.Verdict, msg)
			}
			return
		}
		if res.Verdict != guide.VerdictError || res.Final.Err().Kind != vm.KindRace {
			t.Fatalf("racy test: verdict %s", res.Verdict)
		}
		rs, _, err := trace.Replay(m, e, res.Choices, nil)
		if err != nil || rs.Err() == nil || rs.Err().Kind != vm.KindRace {
			t.Fatalf("the race does not replay: %v", err)
		}
	})
}

// TestPackedStatesMerge: states that differ only in the order in which
// goroutines wrote the elements of a packed array hash equally: the
// exhaustive search of NoRacePackedNeighbours visits as many states with
// every packable object packed as with none.
func TestPackedStatesMerge(t *testing.T) {
	prog, err := load.Load(load.Config{Dir: filepath.Join("testdata", "race", "packed")})
	if err != nil {
		t.Fatal(err)
	}
	var states []int
	for _, n := range []int{1, math.MaxInt} {
		restore := vm.SetPackMin(n)
		m := vm.New(prog, vm.Options{Checks: vm.Checks{Race: true}})
		e, err := m.FindEntry("NoRacePackedNeighbours")
		if err != nil {
			t.Fatal(err)
		}
		res := guide.Search(t.Context(), m, e, guide.Config{Strategy: guide.Exhaustive, MaxStates: 100000})
		restore()
		if res.Verdict != guide.VerdictNoError {
			t.Fatalf("packMin %d: verdict %s", n, res.Verdict)
		}
		states = append(states, res.Stats.States)
	}
	if states[0] != states[1] {
		t.Errorf("states packed %d, unpacked %d: want equal", states[0], states[1])
	}
}

// TestSendersStateSpace: the sends of workers on channels nothing closes,
// and their loads of the variables holding them, leave no race memory
// (vm/byvalue.go), so the exhaustive search of testdata/race/senders
// (three workers) proves it race-free in about half the states it took
// when each send was remembered (sync-only scheduling points: 36,745 →
// 17,684; at shared accesses too: 158,702 → 131,292).
func TestSendersStateSpace(t *testing.T) {
	for _, c := range []struct {
		sched vm.SchedMode
		max   int
	}{{vm.SchedSync, 20000}, {vm.SchedShared, 145000}} {
		m, e := machine(t, "race/senders", vm.Options{Sched: c.sched, Checks: vm.Checks{Race: true, Leak: true}})
		res := guide.Search(t.Context(), m, e, guide.Config{Strategy: guide.Exhaustive, MaxStates: 300000})
		if res.Verdict != guide.VerdictNoError || !res.Exhausted {
			t.Fatalf("verdict %s (exhausted %v), want no error, exhausted", res.Verdict, res.Exhausted)
		}
		if res.Stats.States > c.max {
			t.Errorf("sched %v: %d states, want at most %d", c.sched, res.Stats.States, c.max)
		}
	}
}
