package vm_test

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/gmc-go/gmc/internal/goker"
	"github.com/gmc-go/gmc/vm"
	"github.com/gmc-go/gmc/vm/load"
	"github.com/gmc-go/gmc/vm/trace"
)

// BenchmarkSieve: a CPU-bound sequential program; reports instructions/s.
func BenchmarkSieve(b *testing.B) {
	m, e := machine(b, "sieve", vm.Options{Sched: vm.SchedSync})
	var instrs int64
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		s, _, _ := trace.RandomRun(m, e, 1, 1e9, nil)
		instrs += s.Instructions()
	}
	b.ReportMetric(float64(instrs)/b.Elapsed().Seconds(), "instr/s")
}

// BenchmarkPingPong: goroutines exchanging 1000 messages over unbuffered
// channels; reports transitions/s.
func BenchmarkPingPong(b *testing.B) {
	m, e := machine(b, "pingpong", vm.Options{Sched: vm.SchedSync, Args: []string{"1000"}})
	var steps int
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		s, choices, _ := trace.RandomRun(m, e, uint64(i), 1e9, nil)
		if !s.Exited() {
			b.Fatal("did not exit")
		}
		steps += len(choices)
	}
	b.ReportMetric(float64(steps)/b.Elapsed().Seconds(), "transitions/s")
}

// bigHeapState returns a state of the bigheap program after its 10,000-node
// list is built (the first transition of a worker goroutine is pending).
func bigHeapState(b *testing.B) (*vm.Machine, *vm.State) {
	m, e := machine(b, "bigheap", vm.Options{Sched: vm.SchedSync})
	s := m.Start(e)
	for len(s.Choices()) < 2 {
		s = m.Step(s, 0)
	}
	return m, s
}

// BenchmarkSnapshotRestore: the cost of restoring a saved state with a
// 10,000-object heap and running one transition from it (the guided
// search's backtracking); states are immutable, so restoring is stepping
// from the saved state.
func BenchmarkSnapshotRestore(b *testing.B) {
	m, s := bigHeapState(b)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		n := m.Step(s, i%len(s.Choices()))
		_ = n
	}
}

// BenchmarkHash10k: the canonical hash of a state with a 10,000-object heap.
func BenchmarkHash10k(b *testing.B) {
	m, s := bigHeapState(b)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		n := m.Step(s, 0) // a fresh state: hashes are cached per state
		_ = n.Hash()
	}
}

// BenchmarkManyGoroutines: two goroutines exchange 2,000 messages while
// 1,100 others are blocked (on a channel and a mutex); reports
// transitions/s.
func BenchmarkManyGoroutines(b *testing.B) {
	m, e := machine(b, "manyg", vm.Options{Sched: vm.SchedSync, Checks: vm.Checks{Leak: true}, Args: []string{"2000"}})
	var steps int
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		s, choices, _ := trace.RandomRun(m, e, uint64(i), 1e9, nil)
		if !s.Exited() {
			b.Fatalf("did not exit: %v", s.Err())
		}
		steps += len(choices)
	}
	b.ReportMetric(float64(steps)/b.Elapsed().Seconds(), "transitions/s")
}

// BenchmarkGoKerKernel: random runs of a GoKer kernel with many goroutines
// (GMC_BENCH_KERNEL, default Kubernetes70277: a thousand goroutines, each
// with a ticker) for at most 50,000 transitions; reports transitions/s.
// GMC_BENCH_RACE=1 turns the race detector on (as the GoKer campaign runs),
// GMC_BENCH_GOLIKE=1 runs the fallback's Go-like walk (real time, sticky).
func BenchmarkGoKerKernel(b *testing.B) {
	name := os.Getenv("GMC_BENCH_KERNEL")
	if name == "" {
		name = "Kubernetes70277"
	}
	dir := filepath.Join(goker.Base(), "goker")
	prog, err := load.Load(load.Config{Dir: dir})
	if err != nil {
		b.Skip(err)
	}
	o := vm.Options{Checks: vm.Checks{Leak: true, Race: os.Getenv("GMC_BENCH_RACE") == "1"}}
	stay := 0.0
	if os.Getenv("GMC_BENCH_GOLIKE") == "1" { // the fallback's Go-like walk (guide/fallback.go)
		o.StepTime, o.EntryGrace, stay = int64(time.Microsecond), 10000, 0.9
	}
	m := vm.New(prog, o)
	e, err := m.FindEntry(name)
	if err != nil {
		b.Fatal(err)
	}
	var steps int
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		_, choices, _ := trace.Walk(m, e, trace.WalkConfig{Seed: uint64(i), MaxDepth: 50000, Stay: stay}, nil)
		steps += len(choices)
	}
	b.ReportMetric(float64(steps)/b.Elapsed().Seconds(), "transitions/s")
}
