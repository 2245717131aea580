package guide

import (
	"context"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gmc-go/gmc/vm"
	"github.com/gmc-go/gmc/vm/load"
)

// TestBoundZero measures the bounded search at bound 0 alone (2 minutes
// at most per entry, or GMC_BOUND0_TIME), as gmc check's portfolio runs it on a test with
// races checked (sync-only scheduling): GMC_BOUND0=DIR:PKG:TEST,TEST...,
// e.g. GMC_BOUND0=..:./guide/testdata/workers:TestN20L6 (benchmarks/RESULTS.md,
// session 8). It logs whether bound 0 completed and its states, and the
// CPU time the search took (user + system of the process, the collector's
// included: what a loaded machine's wall time hides) and states per CPU
// second. GMC_BOUND0_STATES=N stops each search after N states (a fixed
// workload to compare builds by). GMC_BOUND0_ARGS gives a main its
// arguments (space-separated), GMC_BOUND0_NORACE=1 searches without the
// race detector (still scheduling at synchronization only: what race
// memory costs), GMC_BOUND0_K=k searches at bound k instead of 0.
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
		o, _ := syncOnly(vm.Options{Checks: vm.Checks{Leak: true, Race: os.Getenv("GMC_BOUND0_NORACE") == ""}})
		if a := os.Getenv("GMC_BOUND0_ARGS"); a != "" {
			o.Args = strings.Fields(a)
		}
		if !o.Checks.Race {
			o.Sched = vm.SchedSync
		}
		m := vm.New(prog, o)
		e, err := m.FindEntry(name)
		if err != nil {
			t.Fatal(err)
		}
		tl := 2 * time.Minute
		if d, err := time.ParseDuration(os.Getenv("GMC_BOUND0_TIME")); err == nil {
			tl = d
		}
		se := newSearcher(context.Background(), m, Config{TimeLimit: tl, MaxDepth: 10000000}) // (gmc check's --depth)
		limit, _ := strconv.Atoi(os.Getenv("GMC_BOUND0_STATES"))
		start, cpu0 := time.Now(), cpuTime()
		k, _ := strconv.Atoi(os.Getenv("GMC_BOUND0_K")) // (another bound to measure)
		out := se.preemptionBounded(startObserved(m, e, nil), k, limit)
		cpu := (cpuTime() - cpu0).Seconds()
		t.Logf("%s: bound %d complete=%v error=%v: %d states, depth %d, %.1fs, %.2fs CPU, %.0f states/CPU s", name, k, out.complete,
			out.found != nil, se.stats.States, se.stats.MaxDepth, time.Since(start).Seconds(), cpu, float64(se.stats.States)/cpu)
	}
}
