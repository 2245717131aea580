package vm_test

import (
	"strings"
	"testing"

	"github.com/gmc-go/gmc/guide"
	"github.com/gmc-go/gmc/vm"
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
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m, e := machine(t, "race/"+c.name, vm.Options{Checks: vm.Checks{Race: true}})
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
