package vm

import (
	"math/rand/v2"
	"path/filepath"
	"testing"

	"github.com/gmc-go/gmc/vm/load"
)

// TestHasChoices: hasChoices(n), which counts newest first and stops at
// n, agrees with the choice list at every state of random runs.
func TestHasChoices(t *testing.T) {
	prog, err := load.Load(load.Config{Dir: filepath.Join("testdata", "selects")})
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range []Options{{}, {TimerChoice: true}} {
		m := New(prog, o)
		e, err := m.FindEntry("")
		if err != nil {
			t.Fatal(err)
		}
		for seed := uint64(1); seed <= 3; seed++ {
			rng := rand.New(rand.NewPCG(seed, 1))
			s := m.Start(e)
			for d := 0; d < 2000; d++ {
				got := []bool{s.hasChoices(1), s.hasChoices(2), s.hasChoices(3)}
				cs := s.Choices()
				for n := 1; n <= 3; n++ {
					if got[n-1] != (len(cs) >= n) {
						t.Fatalf("depth %d: hasChoices(%d) = %v with %d choices", d, n, got[n-1], len(cs))
					}
				}
				if len(cs) == 0 {
					break
				}
				s = m.Step(s, rng.IntN(len(cs)))
			}
		}
	}
}
