package vm

import (
	"path/filepath"
	"testing"

	"github.com/gmc-go/gmc/vm/load"
)

// TestRaceRetire runs testdata/race/retired (six workers in turn, each
// ordered before main by a handoff) along one schedule, hashing every
// state as a search does: the ended workers must be retired and leave
// main's clock, which then holds main and the worker running at most,
// not an entry per goroutine ever started; and the run must end without
// a race. It fails if retirement never happens (clocks keep every
// goroutine) or if a retired worker's remembered write were checked
// against main's clock without its entry (a race reported at main's
// x++). TestRaceDetector's retiretimer and retirepartial check that a
// write a pending timer's or a live goroutine's clock does not cover
// keeps its goroutine.
func TestRaceRetire(t *testing.T) {
	s, most := runNewestFirst(t, "retired", Options{Checks: Checks{Race: true}, Sanity: true}, true)
	retired := 0
	for g := range s.nextG {
		if s.race.isRetired(g) {
			retired++
		}
	}
	if retired < 5 {
		t.Errorf("%d of 6 ended workers retired", retired)
	}
	if most > 3 {
		t.Errorf("main's clock held %d entries (main and one worker expected, at most 3)", most)
	}
}

// runNewestFirst runs testdata/race/dir's main along the schedule that
// runs the newest goroutine first (each worker ends before main goes on),
// hashing every state as a search does when hash is set. It fails the test
// if the run ends with an error or does not end; it returns the final
// state and the most entries main's clock held.
func runNewestFirst(t *testing.T, dir string, o Options, hash bool) (*State, int) {
	t.Helper()
	prog, err := load.Load(load.Config{Dir: filepath.Join("testdata", "race", dir)})
	if err != nil {
		t.Fatal(err)
	}
	m := New(prog, o)
	e, err := m.FindEntry("main")
	if err != nil {
		t.Fatal(err)
	}
	s := m.Start(e)
	most := 0
	for s.Err() == nil && !s.Exited() {
		if hash {
			s.Hash()
		}
		if g := s.getG(1); g != nil {
			most = max(most, len(g.vc))
		}
		cs := s.Choices()
		if len(cs) == 0 {
			break
		}
		s = m.Step(s, len(cs)-1)
	}
	if err := s.Err(); err != nil {
		t.Fatalf("the run ended with an error: %s", err.Msg)
	}
	if !s.Exited() {
		t.Fatal("the run did not end")
	}
	return s, most
}

// TestRaceRetireUnhashed runs testdata/race/retiredmany (300 workers in
// turn, each ordered before main) along one schedule without hashing a
// state, as a random walk does: the run's own race summaries every
// retireEvery goroutine starts (maybeRetire) must keep main's clock near
// retireEvery entries, not one per worker; and the run must end without a
// race. It fails if retirement waits for a hash (main's clock then ends
// with 301 entries).
func TestRaceRetireUnhashed(t *testing.T) {
	_, most := runNewestFirst(t, "retiredmany", Options{Checks: Checks{Race: true}, Sanity: true}, false)
	if most > retireEvery+3 {
		t.Errorf("main's clock held %d entries (at most retireEvery+3 = %d expected)", most, retireEvery+3)
	}
}

// TestRaceReadsSuperseded runs testdata/race/readersinturn (300 readers
// in turn of a word a goroutine wrote) along one schedule without hashing
// a state: each read is ordered after the ones before it and supersedes
// them, so the word's shadow never holds more than a few reads, and the
// run ends without a race. It fails if reads pile up (one per reader, as
// before reads superseded one another).
func TestRaceReadsSuperseded(t *testing.T) {
	s, _ := runNewestFirst(t, "readersinturn", Options{Checks: Checks{Race: true}, Sanity: true}, false)
	most := 0
	for id := ObjID(1); id < s.heap.next; id++ {
		if o := s.heap.get(id); o != nil {
			for _, sh := range o.shadow {
				if sh != nil {
					most = max(most, len(sh.reads))
				}
			}
		}
	}
	if most > 2 {
		t.Errorf("a cell's shadow holds %d reads at the end (at most 2 expected)", most)
	}
}
