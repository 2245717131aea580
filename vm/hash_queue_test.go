package vm_test

import (
	"path/filepath"
	"testing"

	"github.com/gmc-go/gmc/vm"
	"github.com/gmc-go/gmc/vm/load"
)

// TestHashQueueSymmetry: senders queued on one channel are named by their
// place in the queue when they are twins (the canonical order of
// goroutines, hash.go orderTwins), so identical senders that queued in
// another order give the same hash — the n! orders of n twins are one
// state; senders alike in code that send different values do not: their
// two orders hash differently, and a depth-first search over the states
// with a visited set finds the panic that only one order of the three
// reaches (it would not if the hash merged those orders).
func TestHashQueueSymmetry(t *testing.T) {
	prog, err := load.Load(load.Config{Dir: filepath.Join("testdata", "queuesym")})
	if err != nil {
		t.Fatal(err)
	}
	for _, same := range []bool{true, false} {
		var args []string
		if same {
			args = []string{"same"}
		}
		m := vm.New(prog, vm.Options{Sched: vm.SchedSync, Checks: vm.Checks{Race: true}, Args: args})
		e, err := m.FindEntry("")
		if err != nil {
			t.Fatal(err)
		}
		// main runs until it blocks at the gate
		start := m.Start(e)
		for {
			idx := -1
			for i, c := range start.Choices() {
				if c.G == 1 {
					idx = i
				}
			}
			if idx < 0 {
				break
			}
			start = m.Step(start, idx)
		}
		queue := func(order ...int) *vm.State {
			s := start
			for _, g := range order {
				s = runBlocked(m, s, g) // until g blocks in its send
			}
			return s
		}
		ab, ba := queue(2, 3), queue(3, 2)
		if ab.Err() != nil || ba.Err() != nil {
			t.Fatal(errString(ab.Err()), errString(ba.Err()))
		}
		if same != (ab.Hash() == ba.Hash()) {
			t.Errorf("same=%v: the two orders of two queued senders hash equally: %v", same, ab.Hash() == ba.Hash())
		}
		// every schedule, states merged by hash
		visited := map[uint64]bool{}
		found := false
		var dfs func(s *vm.State)
		dfs = func(s *vm.State) {
			if s.Err() != nil { // (an error state hashes as the state it ends)
				found = found || s.Err().Kind == vm.KindPanic
				return
			}
			if found || visited[s.Hash()] {
				return
			}
			visited[s.Hash()] = true
			for i := range s.Choices() {
				dfs(m.Step(s, i))
			}
		}
		dfs(m.Start(e))
		if found == same {
			t.Errorf("same=%v: the search found the reverse order: %v", same, found)
		}
	}
}
