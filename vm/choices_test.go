package vm_test

import (
	"path/filepath"
	"reflect"
	"testing"

	"github.com/gmc-go/gmc/vm"
	"github.com/gmc-go/gmc/vm/load"
	"github.com/gmc-go/gmc/vm/trace"
)

// TestStepAmong: at every state of random runs, StepAmong with the
// state's choice goroutines gives, for every choice, the state Step gives
// (select cases, a timer firing under --timing any, several goroutines).
func TestStepAmong(t *testing.T) {
	for _, name := range []string{"selects", "philosophers"} {
		prog, err := load.Load(load.Config{Dir: filepath.Join("testdata", name)})
		if err != nil {
			t.Fatal(err)
		}
		for _, o := range []vm.Options{{Args: []string{"3"}}, {TimerChoice: true, Checks: vm.Checks{Race: true, Leak: true}, Args: []string{"3"}}} {
			m := vm.New(prog, o)
			e, err := m.FindEntry("")
			if err != nil {
				t.Fatal(err)
			}
			compared, cases := 0, 0
			obs := func(s *vm.State) {
				if compared > 3000 {
					return
				}
				gids := s.AppendChoiceGoroutines(nil)
				// StepAmong first: s.Choices() would cache the list it reads
				among := make([]*vm.State, len(gids))
				for i := range gids {
					among[i] = m.StepAmong(s, i, gids)
				}
				if len(gids) != len(s.Choices()) {
					t.Fatalf("%s: %d choice goroutines, %d choices", name, len(gids), len(s.Choices()))
				}
				for i, c := range s.Choices() {
					if c.Kind == vm.ChooseSelectCase {
						cases++
					}
					a, b := m.Step(s, i), among[i]
					if a.Hash() != b.Hash() || !reflect.DeepEqual(a.LastStep(), b.LastStep()) {
						t.Fatalf("%s: choice %d (%+v): StepAmong differs from Step", name, i, c)
					}
					compared++
				}
			}
			for seed := uint64(1); seed <= 3; seed++ {
				trace.Walk(m, e, trace.WalkConfig{Seed: seed, MaxDepth: 2000}, obs)
			}
			if compared == 0 || name == "selects" && cases == 0 {
				t.Errorf("%s: %d choices compared, %d of them select cases", name, compared, cases)
			}
		}
	}
}
