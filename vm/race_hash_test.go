package vm

import (
	"path/filepath"
	"testing"

	"github.com/gmc-go/gmc/vm/load"
)

// TestRaceHash: two schedules of testdata/race/merged reach the same
// program state, main about to read x, with different happens-before (main
// locked first: its read races with the worker's write; the worker locked
// first: it does not). Their hashes differ, though the program states
// without the race detector's summary hash equal; and only the first
// reports the race.
func TestRaceHash(t *testing.T) {
	prog, err := load.Load(load.Config{Dir: filepath.Join("testdata", "race", "merged")})
	if err != nil {
		t.Fatal(err)
	}
	m := New(prog, Options{Checks: Checks{Race: true}})
	e, err := m.FindEntry("main")
	if err != nil {
		t.Fatal(err)
	}
	run := func(order []int) *State {
		s := m.Start(e)
		for _, g := range order {
			idx := -1
			for i, c := range s.Choices() {
				if c.G == g {
					idx = i
				}
			}
			if idx < 0 {
				t.Fatalf("goroutine %d cannot run after %v", g, order)
			}
			s = m.Step(s, idx)
		}
		return s
	}
	// init (2 steps), go, then Lock, Unlock of main and start, write, Lock,
	// Unlock of the worker, in either order
	racy := run([]int{1, 1, 1, 1, 1, 2, 2, 2, 2})
	ordered := run([]int{1, 1, 1, 2, 2, 2, 2, 1, 1})
	if racy.walk(m.hashRoots).h != ordered.walk(m.hashRoots).h {
		t.Fatal("the two schedules do not reach the same program state")
	}
	if racy.Hash() == ordered.Hash() {
		t.Error("states with different happens-before hash equal")
	}
	next := func(s *State) *State {
		for i, c := range s.Choices() {
			if c.G == 1 {
				return m.Step(s, i)
			}
		}
		t.Fatal("main cannot run")
		return nil
	}
	if err := next(racy).Err(); err == nil || err.Kind != KindRace {
		t.Errorf("main locked first: got %v, want a race", err)
	}
	if err := next(ordered).Err(); err != nil {
		t.Errorf("the worker locked first: got %v, want no error", err)
	}
}
