package vm_test

import (
	"path/filepath"
	"reflect"
	"testing"

	"github.com/gmc-go/gmc/vm"
	"github.com/gmc-go/gmc/vm/load"
	"github.com/gmc-go/gmc/vm/trace"
)

// machine loads vm/testdata/<name> and returns a machine and its main entry.
func machine(tb testing.TB, name string, opts vm.Options) (*vm.Machine, vm.Entry) {
	tb.Helper()
	prog, err := load.Load(load.Config{Dir: filepath.Join("testdata", name)})
	if err != nil {
		tb.Fatal(err)
	}
	m := vm.New(prog, opts)
	e, err := m.FindEntry("")
	if err != nil {
		tb.Fatal(err)
	}
	return m, e
}

func errString(e *vm.Error) string {
	if e == nil {
		return ""
	}
	return string(e.Kind) + ": " + e.Msg
}

// TestDeterminismAndReplay: the same seed gives the same run, and replaying
// the recorded choices reproduces the final state (hash, output, error).
func TestDeterminismAndReplay(t *testing.T) {
	for _, name := range []string{"pingpong", "allocorder", "philosophers"} {
		for _, sched := range []vm.SchedMode{vm.SchedShared, vm.SchedSync} {
			m, e := machine(t, name, vm.Options{Sched: sched, Args: []string{"20"}})
			for seed := uint64(1); seed <= 3; seed++ {
				s1, c1, st1 := trace.RandomRun(m, e, seed, 1e6, nil)
				s2, c2, st2 := trace.RandomRun(m, e, seed, 1e6, nil)
				if !reflect.DeepEqual(c1, c2) || !reflect.DeepEqual(st1, st2) || s1.Output(0) != s2.Output(0) || errString(s1.Err()) != errString(s2.Err()) {
					t.Errorf("%s seed %d: two runs differ", name, seed)
				}
				r, _, err := trace.Replay(m, e, c1, nil)
				if err != nil {
					t.Fatalf("%s seed %d: %v", name, seed, err)
				}
				if r.Hash() != s1.Hash() || r.Output(0) != s1.Output(0) || errString(r.Err()) != errString(s1.Err()) {
					t.Errorf("%s seed %d: replay differs", name, seed)
				}
				if !s1.Exited() {
					t.Errorf("%s seed %d: did not exit normally: %s", name, seed, errString(s1.Err()))
				}
			}
		}
	}
}

// TestSnapshotRoundTrip: run k steps, keep the state, run m more; running
// the same m steps again from the kept state gives identical hashes and
// output, and the kept state itself is unchanged.
func TestSnapshotRoundTrip(t *testing.T) {
	for _, name := range []string{"pingpong", "philosophers", "allocorder"} {
		m, e := machine(t, name, vm.Options{Args: []string{"20"}})
		_, choices, _ := trace.RandomRun(m, e, 7, 1e6, nil)
		for _, k := range []int{0, 1, len(choices) / 3, len(choices) / 2} {
			s := m.Start(e)
			for _, c := range choices[:k] {
				s = m.Step(s, c)
			}
			saved := s
			savedHash, savedOut := s.Hash(), s.Output(0)
			run := func() ([]uint64, string) {
				var hs []uint64
				x := saved
				for _, c := range choices[k:] {
					x = m.Step(x, c)
					hs = append(hs, x.Hash())
				}
				return hs, x.Output(0)
			}
			h1, o1 := run()
			if saved.Hash() != savedHash || saved.Output(0) != savedOut {
				t.Fatalf("%s k=%d: the saved state changed", name, k)
			}
			h2, o2 := run()
			if !reflect.DeepEqual(h1, h2) || o1 != o2 {
				t.Errorf("%s k=%d: restoring gives a different run", name, k)
			}
		}
	}
}

// TestHashAllocationOrder: states that differ only by which goroutine
// allocated first hash equally; states that differ in memory do not.
func TestHashAllocationOrder(t *testing.T) {
	m, e := machine(t, "allocorder", vm.Options{Sched: vm.SchedSync})
	// Run main until both workers exist, then run them in either order.
	finish := func(order []int) *vm.State {
		s := m.Start(e)
		for len(s.Choices()) == 1 && s.Choices()[0].G == 1 {
			s = m.Step(s, 0)
		}
		for _, g := range order {
			s = runBlocked(m, s, g)
		}
		return s
	}
	a := finish([]int{2, 3})
	b := finish([]int{3, 2})
	if a.Err() != nil || b.Err() != nil {
		t.Fatal(errString(a.Err()), errString(b.Err()))
	}
	if a.Hash() != b.Hash() {
		t.Errorf("hashes differ for states equal up to allocation order")
	}
	if a.Hash() == m.Start(e).Hash() {
		t.Errorf("different states hash equally")
	}
}

// choiceOf returns the index of goroutine g's choice in s (-1: g cannot
// run).
func choiceOf(s *vm.State, g int) int {
	idx := -1
	for i, c := range s.Choices() {
		if c.G == g {
			idx = i
		}
	}
	return idx
}

// runBlocked runs goroutine g from s until it cannot run.
func runBlocked(m *vm.Machine, s *vm.State, g int) *vm.State {
	for idx := choiceOf(s, g); idx >= 0; idx = choiceOf(s, g) {
		s = m.Step(s, idx)
	}
	return s
}
