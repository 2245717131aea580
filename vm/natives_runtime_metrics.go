package vm

import (
	"go/types"
	"math"
	rtmetrics "runtime/metrics"
	"slices"
	"sync"
)

// runtime/metrics runs from its source (vm/load's interpretedUnder): its
// descriptions (All) are Go data. Its one call into the runtime,
// runtime_readMetrics, is this native. prometheus/client_golang builds its
// Go collector from metrics.All in its package initializer, so every
// program that imports it calls it; its collector reads the samples.
//
// A sample's kind is the description's (the host runtime's, the same Go
// release as the program's standard library); an unknown name is
// KindBad, as in Go. The values are what the VM's state says:
//   - /sched/goroutines:goroutines: the goroutines alive (as
//     runtime.NumGoroutine: the read is a scheduling point that depends on
//     every transition);
//   - /gc/cycles/total and /gc/cycles/forced: the collections the program
//     forced (runtime.GC), /gc/cycles/automatic 0;
//   - /gc/heap/objects:objects, /gc/heap/live:bytes,
//     /memory/classes/heap/objects:bytes and /memory/classes/total:bytes:
//     the heap the program can reach, so that the MemStats they make
//     (as prometheus/client_golang's memStatsFromRM makes them: HeapAlloc,
//     HeapInuse, HeapSys, Sys, HeapObjects) are runtime.ReadMemStats's
//     (natives_runtime_stats.go; its TestMemStatsEquivalence compares the
//     two);
//   - /sched/gomaxprocs:threads: runtime.GOMAXPROCS's 2; /gc/gogc:percent
//     100 and /gc/gomemlimit:bytes math.MaxInt64 (the defaults: the
//     program's own settings are not modelled);
//   - every other counter and gauge 0 (work the VM does not do: the
//     allocator's, the scheduler's, the collector's), and every histogram
//     empty, over the runtime's own buckets (the host's: a first version
//     of one bucket, -Inf to +Inf, made client_golang's batch histogram
//     index past its end — a false panic in three of its tests).

func init() {
	defVisible("runtime/metrics.runtime_readMetrics", nativeRuntimeReadMetrics)
}

// hostMetricKinds are the kinds of the host runtime's metrics, by name.
var hostMetricKinds = func() map[string]rtmetrics.ValueKind {
	kinds := map[string]rtmetrics.ValueKind{}
	for _, d := range rtmetrics.All() {
		kinds[d.Name] = d.Kind
	}
	return kinds
}()

// hostHistogramBuckets are the bucket boundaries of the host runtime's
// histograms, by name: fixed by the runtime (its time buckets, its size
// classes), and what code reading them relies on (client_golang drops
// the first -Inf boundary and maps each runtime bucket onto its own).
var hostHistogramBuckets = sync.OnceValue(func() map[string][]float64 {
	var samples []rtmetrics.Sample
	for _, d := range rtmetrics.All() {
		if d.Kind == rtmetrics.KindFloat64Histogram {
			samples = append(samples, rtmetrics.Sample{Name: d.Name})
		}
	}
	rtmetrics.Read(samples)
	buckets := map[string][]float64{}
	for _, s := range samples {
		if s.Value.Kind() == rtmetrics.KindFloat64Histogram {
			buckets[s.Name] = slices.Clone(s.Value.Float64Histogram().Buckets)
		}
	}
	return buckets
})

// nativeRuntimeReadMetrics is runtime/metrics.runtime_readMetrics(samplesp
// unsafe.Pointer, len, cap int): the values of the samples at samplesp.
func nativeRuntimeReadMetrics(t *thread, args []Value) (Value, ctl) {
	defer func() { t.s.last.Op = "runtime/metrics.Read" }() // (after NumGoroutine's)
	t.touch(AllObjects, false)
	p, n := ptrArg(args[0]), toInt(args[1])
	st := t.m.namedType("runtime/metrics", "Sample")
	vt := t.m.namedType("runtime/metrics", "Value")
	if p.Obj == 0 || n == 0 || st == nil || vt == nil {
		return nil, ctlNext
	}
	nameOff, _, ok1 := t.m.testField(st, "Name")
	valOff, _, ok2 := t.m.testField(st, "Value")
	kindOff, _, ok3 := t.m.testField(vt, "kind")
	scalarOff, _, ok4 := t.m.testField(vt, "scalar")
	ptrOff, _, ok5 := t.m.testField(vt, "pointer")
	if !ok1 || !ok2 || !ok3 || !ok4 || !ok5 {
		return nil, t.unsupported(t.g.top, "runtime/metrics.Read: a Sample or Value without the fields of this Go release")
	}
	var heapBytes, heapObjects uint64
	heapDone := false
	heap := func() (uint64, uint64) {
		if !heapDone {
			heapBytes, heapObjects = t.s.reachableHeap()
			heapDone = true
		}
		return heapBytes, heapObjects
	}
	for i := 0; i < n; i++ {
		sp := Pointer{Obj: p.Obj, Off: p.Off + int32(i*st.Size)}
		name, _ := t.cell(sp, nameOff).(string)
		vp := Pointer{Obj: sp.Obj, Off: sp.Off + valOff}
		kind, ok := hostMetricKinds[name]
		if !ok {
			kind = rtmetrics.KindBad
		}
		var scalar uint64
		var ptr Value = Pointer{}
		switch kind {
		case rtmetrics.KindUint64:
			switch name {
			case "/sched/goroutines:goroutines":
				g, _ := nativeRuntimeNumGoroutine(t, nil)
				scalar = uint64(g.(int))
			case "/gc/cycles/total:gc-cycles", "/gc/cycles/forced:gc-cycles":
				scalar = uint64(t.s.numGC)
			case "/gc/heap/objects:objects":
				_, scalar = heap()
			case "/gc/heap/live:bytes", "/memory/classes/heap/objects:bytes", "/memory/classes/total:bytes":
				scalar, _ = heap()
			case "/sched/gomaxprocs:threads":
				scalar = 2
			case "/gc/gogc:percent":
				scalar = 100
			case "/gc/gomemlimit:bytes":
				scalar = math.MaxInt64
			}
		case rtmetrics.KindFloat64Histogram:
			hp, ok := t.emptyHistogram(hostHistogramBuckets()[name])
			if !ok {
				return nil, t.unsupported(t.g.top, "runtime/metrics.Read of a histogram without runtime/metrics.Float64Histogram's fields")
			}
			ptr = hp
		}
		t.setCell(vp, kindOff, int(kind))
		t.setCell(vp, scalarOff, scalar)
		t.setCell(vp, ptrOff, ptr)
	}
	return nil, ctlNext
}

// emptyHistogram allocates a runtime/metrics.Float64Histogram with the
// given boundaries (at least two) and every count 0.
func (t *thread) emptyHistogram(bounds []float64) (Pointer, bool) {
	if len(bounds) < 2 {
		bounds = []float64{math.Inf(-1), math.Inf(1)}
	}
	ht := t.m.namedType("runtime/metrics", "Float64Histogram")
	if ht == nil {
		return Pointer{}, false
	}
	countsOff, ct, ok1 := t.m.testField(ht, "Counts")
	bucketsOff, bt, ok2 := t.m.testField(ht, "Buckets")
	if !ok1 || !ok2 {
		return Pointer{}, false
	}
	h := t.alloc(ht)
	zeros := make([]Value, len(bounds)-1)
	for i := range zeros {
		zeros[i] = uint64(0)
	}
	bvals := make([]Value, len(bounds))
	for i, b := range bounds {
		bvals[i] = b
	}
	counts := t.newSliceOf(t.m.types.get(ct.T.Underlying().(*types.Slice).Elem()), zeros)
	buckets := t.newSliceOf(t.m.types.get(bt.T.Underlying().(*types.Slice).Elem()), bvals)
	t.setCell(h, countsOff, counts)
	t.setCell(h, bucketsOff, buckets)
	return h, true
}
