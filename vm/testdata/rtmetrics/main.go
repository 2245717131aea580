// Command rtmetrics reads runtime/metrics as prometheus/client_golang's Go
// collector does: the descriptions, then samples of each kind.
package main

import (
	"fmt"
	"runtime"
	"runtime/metrics"
)

func main() {
	all := metrics.All()
	kinds := map[metrics.ValueKind]int{}
	for _, d := range all {
		kinds[d.Kind]++
	}
	fmt.Println(len(all) > 50, kinds[metrics.KindUint64] > 0, kinds[metrics.KindFloat64] > 0, kinds[metrics.KindFloat64Histogram] > 0)

	done := make(chan bool)
	go func() { <-done }()
	runtime.GC()
	s := []metrics.Sample{
		{Name: "/sched/goroutines:goroutines"},
		{Name: "/gc/cycles/forced:gc-cycles"},
		{Name: "/sched/latencies:seconds"},
		{Name: "/cpu/classes/total:cpu-seconds"},
		{Name: "/no/such:metric"},
	}
	metrics.Read(s)
	fmt.Println(s[0].Value.Kind() == metrics.KindUint64, s[0].Value.Uint64() >= 2, s[1].Value.Uint64())
	h := s[2].Value.Float64Histogram()
	fmt.Println(len(h.Buckets) == len(h.Counts)+1, s[3].Value.Kind() == metrics.KindFloat64, s[4].Value.Kind() == metrics.KindBad)
	// the runtime's own buckets (client_golang drops a first -Inf and maps
	// each bucket onto its own)
	fmt.Println(len(h.Buckets), h.Buckets[0], h.Buckets[len(h.Buckets)-1])
	close(done)

	// the heap in the metrics is runtime.ReadMemStats's (prometheus's
	// memStatsFromRM and its TestMemStatsEquivalence)
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	heap := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}, {Name: "/memory/classes/total:bytes"}, {Name: "/gc/heap/objects:objects"}}
	metrics.Read(heap)
	near := func(a, b uint64) bool { return float64(a) >= 0.9*float64(b) && float64(a) <= 1.1*float64(b) }
	fmt.Println(near(heap[0].Value.Uint64(), ms.HeapAlloc), near(heap[1].Value.Uint64(), ms.Sys), near(heap[2].Value.Uint64(), ms.HeapObjects))

	// the threads prometheus's process collector counts
	n, ok := runtime.ThreadCreateProfile(nil)
	fmt.Println(n >= 1, ok)
}
