package vm_test

import (
	"testing"

	"github.com/gmc-go/gmc/vm"
)

// TestSharedCells: states that load atomically from a large table (a race
// detector update) and write it share its pages until they write them
// (cellpages.go; the table is 7,808 cells). Every schedule of
// testdata/sharedcells is
// explored without merging states, from states kept while their
// successors run on: each run must end with the writes of its own
// schedule only (the second goroutine writes table[1] exactly when it saw
// the first goroutine's store not yet made), and both outcomes occur.
func TestSharedCells(t *testing.T) {
	m, e := machine(t, "sharedcells", vm.Options{Sched: vm.SchedShared, Checks: vm.Checks{Race: true}})
	outs := map[string]int{}
	runs := 0
	var dfs func(s *vm.State)
	dfs = func(s *vm.State) {
		if runs > 100000 {
			t.Fatal("too many runs")
		}
		if err := s.Err(); err != nil {
			t.Fatalf("error: %v", err.Msg)
		}
		if s.Terminal() {
			runs++
			outs[s.Output(1)]++
			return
		}
		for i := range s.Choices() {
			dfs(m.Step(s, i))
		}
	}
	dfs(m.Start(e))
	for out := range outs {
		if out != "0 1 7\n" && out != "1 1 0\n" {
			t.Errorf("a run printed %q: another schedule's write (want \"0 1 7\" or \"1 1 0\")", out)
		}
	}
	if outs["0 1 7\n"] == 0 || outs["1 1 0\n"] == 0 {
		t.Errorf("outputs %v over %d runs: want both orders", outs, runs)
	}
}
