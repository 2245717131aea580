package guide

import (
	"testing"

	"github.com/gmc-go/gmc/vm"
	"github.com/gmc-go/gmc/vm/loc"
)

// TestSyncOnly checks when the exhaustive searches drop the scheduling
// points at shared accesses: only when every race is an error and runs
// take no time per transition.
func TestSyncOnly(t *testing.T) {
	race := vm.Checks{Race: true}
	cases := []struct {
		name string
		o    vm.Options
		want bool
	}{
		{"races checked", vm.Options{Checks: race}, true},
		{"no race check", vm.Options{}, false},
		{"already sync", vm.Options{Sched: vm.SchedSync, Checks: race}, false},
		{"some races only", vm.Options{Checks: race, RaceAt: []loc.Loc{{}}}, false},
		{"quiet errors (never a race)", vm.Options{Checks: race, Quiet: func(*vm.Error) bool { return true }}, true},
		{"real time", vm.Options{Checks: race, StepTime: 10}, false},
		{"any timing", vm.Options{Checks: race, TimerChoice: true}, false},
	}
	for _, tc := range cases {
		o, ok := syncOnly(tc.o)
		if ok != tc.want || ok && o.Sched != vm.SchedSync || !ok && o.Sched != tc.o.Sched {
			t.Errorf("%s: sched %d, ok %v; want ok %v", tc.name, o.Sched, ok, tc.want)
		}
	}
}
