package guide

import (
	"context"
	"reflect"
	"testing"
	"time"

	"github.com/gmc-go/gmc/vm"
)

// TestInPlaceSameSearch: stepping the states a search drops in place
// (inPlace: the random walks' runs, the bounded search's chains of single
// successors) changes no search's course: the same verdicts, states,
// depths and counterexamples as stepping every state by copies (the
// exhaustive strategy's split between its two searches follows their
// times: its verdict and claim are compared, and its states on a space
// the full search alone exhausts).
func TestInPlaceSameSearch(t *testing.T) {
	if testing.Short() {
		t.Skip("loads benchmark programs")
	}
	type outcome struct {
		Verdict     string
		States      int
		MaxDepth    int
		Choices     []int
		Preemptions int
		Exhausted   bool
	}
	of := func(r Result) outcome {
		return outcome{r.Verdict, r.Stats.States, r.Stats.MaxDepth, r.Choices, r.Preemptions, r.Exhausted}
	}
	both := func(name string, run func() Result, exact bool) {
		t.Helper()
		defer func(old bool) { inPlace = old }(inPlace)
		inPlace = true
		a := of(run())
		inPlace = false
		b := of(run())
		if !exact {
			a.States, b.States = 0, 0
		}
		if !reflect.DeepEqual(a, b) {
			t.Errorf("%s: in place %+v, by copies %+v", name, a, b)
		}
	}
	search := func(pkg string, args []string, cfg Config) func() Result {
		prog, opts, e := loadMain(t, pkg, args)
		m := vm.New(prog, opts)
		return func() Result { return Search(context.Background(), m, e, cfg) }
	}
	for seed := uint64(1); seed <= 3; seed++ {
		both("reorder 4 1, random", search("./benchmarks/reorder", []string{"4", "1"}, Config{Strategy: Random, Seed: seed, MaxStates: 20000, TimeLimit: time.Minute}), true)
	}
	both("reorder_fixed 3 1, exhaustive", search("./benchmarks/reorder_fixed", []string{"3", "1"}, Config{Strategy: Exhaustive, TimeLimit: time.Minute}), false)
	both("reorder_fixed 10 1, bounded", search("./benchmarks/reorder_fixed", []string{"10", "1"}, Config{Strategy: Exhaustive, MaxStates: 30000, TimeLimit: time.Minute}), false)
	both("longpath, exhaustive", search("./guide/testdata/longpath", nil, Config{Strategy: Exhaustive, TimeLimit: time.Minute}), false)
	// the fallback's walks, resumed from the first state with a choice
	prog, _, e := loadMain(t, "./guide/testdata/forkwalk", nil)
	m := vm.New(prog, vm.Options{})
	for seed := uint64(1); seed <= 4; seed++ {
		both("forkwalk walk", func() Result {
			se := newSearcher(context.Background(), m, Config{Seed: seed, TimeLimit: time.Minute})
			root := m.Start(e)
			return se.walk(root, &walkState{s: root, p: &pathNode{}, forced: true}, 0)
		}, true)
	}
}
