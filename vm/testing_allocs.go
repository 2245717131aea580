package vm

// testing.AllocsPerRun and testing.Benchmark: what they return is a
// measurement of the gc toolchain's build (the heap allocations its escape
// analysis left in f, the time f took), which the VM does not model. A
// test that asserts on it (go.uber.org/multierr asserts 0 allocations) can
// be neither passed nor failed soundly, so the entry stops there, "not
// checked", naming the call; what ran before it was checked.

func init() {
	def("testing.AllocsPerRun", nativeTestingAllocsPerRun)
	def("testing.Benchmark", nativeTestingBenchmark)
}

// nativeTestingAllocsPerRun is testing.AllocsPerRun: not modelled.
func nativeTestingAllocsPerRun(t *thread, args []Value) (Value, ctl) {
	return nil, t.unsupported(t.g.top, "testing.AllocsPerRun (an allocation count is the gc compiler's escape analysis: not modelled)")
}

// nativeTestingBenchmark is testing.Benchmark: not modelled.
func nativeTestingBenchmark(t *thread, args []Value) (Value, ctl) {
	return nil, t.unsupported(t.g.top, "testing.Benchmark (timings and allocation counts of the gc build: not modelled)")
}
