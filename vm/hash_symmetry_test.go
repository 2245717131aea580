package vm_test

import (
	"testing"

	"github.com/gmc-go/gmc/vm"
)

// TestHashSymmetry: with three identical workers, running worker 2 until
// it blocks at the gate or running worker 3 until it does reaches states
// that differ only by which goroutine is which; they hash equally (the
// race detector on), the blocked worker has the same canonical position
// in both (GoRank), and every Mutex.Unlock, deferred or not, has a
// footprint. Once the program has read its stack (goroutine ids in the
// text), the two states hash differently.
func TestHashSymmetry(t *testing.T) {
	for _, args := range [][]string{nil, {"stack"}} {
		m, e := machine(t, "symmetry", vm.Options{Sched: vm.SchedSync, Checks: vm.Checks{Race: true}, Args: args})
		start := m.Start(e)
		// main runs until it blocks in wg.Wait (the workers started)
		for {
			cs := start.Choices()
			idx := -1
			for i, c := range cs {
				if c.G == 1 {
					idx = i
				}
			}
			if idx < 0 {
				break
			}
			start = m.Step(start, idx)
			if start.Err() != nil {
				t.Fatal(errString(start.Err()))
			}
		}
		runWorker := func(g int) *vm.State {
			s := start
			for s.LastStep().Op != "chan receive" || s.LastStep().G != g {
				idx := choiceOf(s, g)
				if idx < 0 {
					t.Fatalf("worker %d cannot run", g)
				}
				s = m.Step(s, idx)
				if s.LastStep().Op == "sync.Mutex.Unlock" && len(s.Footprint()) == 0 {
					t.Errorf("a Mutex.Unlock of worker %d has no footprint", g)
				}
			}
			return s
		}
		a, b := runWorker(2), runWorker(3)
		if a.Err() != nil || b.Err() != nil {
			t.Fatal(errString(a.Err()), errString(b.Err()))
		}
		if args == nil {
			if a.Hash() != b.Hash() {
				t.Errorf("states equal up to a renaming of goroutines hash differently")
			}
			if ra, rb := a.GoRank(2), b.GoRank(3); ra != rb || ra < 0 {
				t.Errorf("the worker that ran has positions %d and %d", ra, rb)
			}
			if a.Hash() == start.Hash() {
				t.Errorf("different states hash equally")
			}
		} else if a.Hash() == b.Hash() {
			t.Errorf("goroutines renamed after the program read its stack: the states hash equally")
		}
	}
}
