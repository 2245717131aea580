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
	close(done)
}
