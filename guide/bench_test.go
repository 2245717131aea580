package guide

import (
	"context"
	"os"
	"path/filepath"
	"runtime/debug"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gmc-go/gmc/internal/goker"
	"github.com/gmc-go/gmc/vm"
	"github.com/gmc-go/gmc/vm/load"
)

// The VM's speed under a search that hashes every state (the visited
// set), on a fixed amount of work: a state limit, not a time limit, so
// that the same states are explored whatever the machine's load. Each
// reports states/s and the states explored (which a change that keeps the
// VM's semantics keeps).

// BenchmarkDFSReorder: stateful DFS on the seed's Reorder(10,1) for
// 40,000 states (it finds the bug after 49,454).
func BenchmarkDFSReorder(b *testing.B) {
	prog, opts, e := loadMain(b, "./benchmarks/reorder", []string{"10", "1"})
	benchSearch(b, vm.New(prog, opts), e, Config{Strategy: DFS, MaxStates: 40000})
}

// BenchmarkLockGraph: the lock-graph monitor's cost, stateful DFS for
// 40,000 states on lock-heavy models, without and with the monitor (a
// fresh one per search); compare states/cpu-s of the two sub-benchmarks.
func BenchmarkLockGraph(b *testing.B) {
	for _, c := range []struct {
		name, pkg string
		args      []string
	}{
		{"account_fixed", "./benchmarks/account_fixed", []string{"5", "0"}},
		{"reorder_fixed", "./benchmarks/reorder_fixed", []string{"10", "1"}},
		{"vecdeadlock", "./benchmarks/vecdeadlock", []string{"1", "9"}},
	} {
		prog, opts, e := loadMain(b, c.pkg, c.args)
		m := vm.New(prog, opts)
		for _, mon := range []bool{false, true} {
			name := c.name + "/none"
			if mon {
				name = c.name + "/lockgraph"
			}
			b.Run(name, func(b *testing.B) {
				benchSearchWith(b, m, e, Config{Strategy: DFS, MaxStates: 40000}, Monitors{LockGraph: mon})
			})
		}
	}
}

// BenchmarkPredict: the predictive race monitor's cost on race-free
// models with race detection, 40,000 states (GMC_BENCH_STATES) of a stateful DFS (few runs
// end) and of random walks (every walk is a run that ends: the most
// analysis the monitor's budget allows), without and with the monitor;
// compare states/cpu-s, or instructions under valgrind --tool=cachegrind
// (a fixed amount of work: a figure the machine's load does not change;
// GMC_BENCH_MODEL=name loads that model only, so that the load's
// instructions are few and the same in every run; see
// benchmarks/predict_cost.sh). The monitor sets: none, predict,
// lockgraph (the default) and lockgraph+predict.
func BenchmarkPredict(b *testing.B) {
	for _, c := range []struct {
		name, pkg string
		args      []string
	}{
		{"abslist_fixed", "./benchmarks/abslist_fixed", []string{"1", "7"}},
		{"arylist_fixed", "./benchmarks/arylist_fixed", []string{"1", "8"}},
		{"reorder_fixed", "./benchmarks/reorder_fixed", []string{"10", "1"}},
	} {
		if only := os.Getenv("GMC_BENCH_MODEL"); only != "" && only != c.name {
			continue // (under valgrind: load only the model measured)
		}
		prog, opts, e := loadMain(b, c.pkg, c.args)
		opts.Checks.Race = true
		m := vm.New(prog, opts)
		states := 40000
		if n, err := strconv.Atoi(os.Getenv("GMC_BENCH_STATES")); err == nil && n > 0 {
			states = n
		}
		for _, strat := range []Strategy{DFS, Random} {
			for _, mon := range []Monitors{{}, {Predict: true}, {LockGraph: true}, {LockGraph: true, Predict: true}} {
				name := c.name + "/" + string(strat) + "/none"
				if mon.Any() {
					name = c.name + "/" + string(strat) + "/" + strings.Join(mon.Names(), "+")
				}
				b.Run(name, func(b *testing.B) {
					benchSearchWith(b, m, e, Config{Strategy: strat, Seed: 1, MaxStates: states}, mon)
				})
			}
		}
	}
}

// BenchmarkKernelSearch: a search of a GoKer kernel with the checks of
// the campaign (leak and race) for GMC_BENCH_STATES states (default
// 20,000): GMC_BENCH_KERNEL (default Kubernetes58107, thousands of
// goroutines), GMC_BENCH_STRATEGY (default exhaustive, the search the
// campaign's kernels are found by); GMC_BENCH_MONITOR=lockgraph observes
// each search with the lock-graph monitor.
func BenchmarkKernelSearch(b *testing.B) {
	name := os.Getenv("GMC_BENCH_KERNEL")
	if name == "" {
		name = "Kubernetes58107"
	}
	strat := Strategy(os.Getenv("GMC_BENCH_STRATEGY"))
	if strat == "" {
		strat = Exhaustive
	}
	states := 20000
	if n, err := strconv.Atoi(os.Getenv("GMC_BENCH_STATES")); err == nil && n > 0 {
		states = n
	}
	prog, err := load.Load(load.Config{Dir: filepath.Join(goker.Base(), "goker")})
	if err != nil {
		b.Skip(err)
	}
	m := vm.New(prog, vm.Options{Checks: vm.Checks{Leak: true, Race: true}})
	e, err := m.FindEntry(name)
	if err != nil {
		b.Fatal(err)
	}
	mon, _ := ParseMonitors(os.Getenv("GMC_BENCH_MONITOR"))
	benchSearchWith(b, m, e, Config{Strategy: strat, MaxStates: states}, mon)
}

func benchSearch(b *testing.B, m *vm.Machine, e vm.Entry, cfg Config) {
	benchSearchWith(b, m, e, cfg, Monitors{})
}

// benchSearchWith is benchSearch, each search observed by fresh monitors
// mon.
func benchSearchWith(b *testing.B, m *vm.Machine, e vm.Entry, cfg Config, mon Monitors) {
	cfg.TimeLimit = 10 * time.Minute
	if os.Getenv("GOGC") == "" { // the collector's setting of gmc check (cmd/gmc/gc.go)
		defer debug.SetGCPercent(debug.SetGCPercent(400))
	}
	states := 0
	cpu0 := cpuTime()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		c := cfg
		if mon.Any() {
			c.Locks = NewMonitor(mon)
		}
		r := Search(context.Background(), m, e, c)
		states += r.Stats.States
		b.ReportMetric(float64(r.Stats.States), "states")
	}
	b.ReportMetric(float64(states)/b.Elapsed().Seconds(), "states/s")
	// on a loaded machine the time the process ran says more than the
	// time that passed (the collector's work included)
	b.ReportMetric(float64(states)/(cpuTime()-cpu0).Seconds(), "states/cpu-s")
}

// cpuTime returns the CPU time the process has used (user and system).
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
