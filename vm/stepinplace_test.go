package vm_test

import (
	"testing"

	"github.com/gmc-go/gmc/vm"
	"github.com/gmc-go/gmc/vm/trace"
)

// TestStepInPlace: a run stepped in place (Machine.StepAmongInPlace, as a
// random walk steps) goes through the same states as the run stepped by
// copies: at every seventh transition the two states hash alike (a hash
// of the state stepped in place caches what it computed from the state's
// own objects, so the next transition makes a copy: checked too), and the
// runs end with the same output and error. Most transitions are made in
// place, with objects flat and with every object's cells in pages.
func TestStepInPlace(t *testing.T) {
	progs := []string{"pingpong", "philosophers", "allocorder", "sharedcells", "wggo", "selects", "manyg", "bigtable", "packed", "symmetry", "ownrace", "spin", "tickhang", "wgreuse", "queuesym"}
	run := func(t *testing.T) {
		for _, name := range progs {
			m, e := machine(t, name, vm.Options{Sched: vm.SchedShared, Checks: vm.Checks{Race: true, Leak: true}, Args: []string{"20"}})
			for seed := uint64(1); seed <= 3; seed++ {
				_, choices, _ := trace.RandomRun(m, e, seed, 1e5, nil)
				// the run by copies, every state kept
				ref := []*vm.State{m.Start(e)}
				for _, c := range choices {
					ref = append(ref, m.Step(ref[len(ref)-1], c))
				}
				s := m.Step(m.Start(e), choices[0]) // (the initial state is not the walk's own)
				inPlace := 0
				var gids []int32
				for k, c := range choices[1:] {
					gids = s.AppendChoiceGoroutines(gids[:0])
					n := m.StepAmongInPlace(s, c, gids, 0)
					if n == s {
						inPlace++
					}
					s = n
					if (k+2)%7 == 0 {
						if got, want := s.Hash(), ref[k+2].Hash(); got != want {
							t.Fatalf("%s seed %d: after %d transitions the state stepped in place hashes %x, the copies' %x", name, seed, k+2, got, want)
						}
					}
				}
				last := ref[len(ref)-1]
				if s.Hash() != last.Hash() || s.Output(0) != last.Output(0) || errString(s.Err()) != errString(last.Err()) {
					t.Errorf("%s seed %d: the run in place ends otherwise: %q %q, by copies %q %q", name, seed, s.Output(0), errString(s.Err()), last.Output(0), errString(last.Err()))
				}
				if len(choices) > 20 && inPlace < len(choices)/2 {
					t.Errorf("%s seed %d: %d of %d transitions made in place, want most", name, seed, inPlace, len(choices)-1)
				}
			}
		}
	}
	t.Run("flat", run)
	t.Run("paged", func(t *testing.T) {
		defer vm.SetCellPageMin(1)()
		run(t)
	})
}
