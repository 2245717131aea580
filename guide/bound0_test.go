package guide

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/gmc-go/gmc/vm"
	"github.com/gmc-go/gmc/vm/load"
)

// TestBoundZero measures the bounded search at bound 0 alone (2 minutes
// at most per entry), as gmc check's portfolio runs it on a test with
// races checked (sync-only scheduling): GMC_BOUND0=DIR:PKG:TEST,TEST...,
// e.g. GMC_BOUND0=..:./guide/testdata/workers:TestN20L6 (benchmarks/RESULTS.md,
// session 8). It logs whether bound 0 completed and its states.
func TestBoundZero(t *testing.T) {
	spec := strings.SplitN(os.Getenv("GMC_BOUND0"), ":", 3)
	if len(spec) != 3 {
		t.Skip("GMC_BOUND0=DIR:PKG:TESTS not set")
	}
	prog, err := load.Load(load.Config{Dir: spec[0], Patterns: []string{spec[1]}})
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range strings.Split(spec[2], ",") {
		o, _ := syncOnly(vm.Options{Checks: vm.Checks{Leak: true, Race: true}})
		m := vm.New(prog, o)
		e, err := m.FindEntry(name)
		if err != nil {
			t.Fatal(err)
		}
		se := newSearcher(context.Background(), m, Config{TimeLimit: 2 * time.Minute})
		start := time.Now()
		out := se.preemptionBounded(startObserved(m, e, nil), 0, 0)
		t.Logf("%s: bound 0 complete=%v error=%v: %d states, depth %d, %.1fs", name, out.complete,
			out.found != nil, se.stats.States, se.stats.MaxDepth, time.Since(start).Seconds())
	}
}
