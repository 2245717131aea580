package main

import (
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
)

// The VM allocates fast over a large live heap (the loaded program, its
// SSA and the search's states): with Go's default GOGC=100 the collector
// takes about a third to two fifths of the CPU. gmc check and gmc bench
// trade memory for time unless GOGC says otherwise, but not past a soft
// limit on a machine others share (unless GOMEMLIMIT says otherwise).
//
// The trade is bounded by a headroom: after each collection the percentage
// is set so that the heap may grow by at most gcHeadroom past its live
// size, or by half the live size (GOGC=50, gcFloor) when that is more,
// and never by more than gcPercent allows. A search whose live heap stays
// at 90 MB (a DFS: its stack and visited set) then peaks near 250 MB
// instead of 450 MB; a live heap of 1 GB collects as GOGC=50 would
// (GoKer's Kubernetes58107, a live heap of 200–300 MB: 584 MB with a floor
// of GOGC=100, 423 MB with 50, over the same CPU time; benchmarks/RESULTS.md,
// "Session 9: definite verdicts").

// gcPercent is gmc's GOGC unless the environment sets one.
const gcPercent = 400

// gcHeadroom is the growth past the live heap that gcPercentFor allows
// between collections when it is more than the live heap itself.
const gcHeadroom = 160 << 20

// gcFloor is the least GOGC gcPercentFor sets: a live heap past
// 2×gcHeadroom grows by half its size between collections.
const gcFloor = 50

// benchMemLimit is gmc's soft memory limit unless GOMEMLIMIT is set.
const benchMemLimit = 6 << 30

// tuneGC applies gcPercent and benchMemLimit where the environment does not
// set them.
func tuneGC() {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(gcPercent)
		startGCTuner()
	}
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(benchMemLimit)
	}
}

// gcPercentFor is the GOGC for a live heap of live bytes: the growth of
// gcHeadroom, at least 100 (the live heap again) and at most gcPercent.
func gcPercentFor(live uint64) int {
	if live == 0 {
		return gcPercent
	}
	return int(min(max(uint64(gcHeadroom)*100/live, gcFloor), gcPercent))
}

// gcSentinel is an object whose finalizer runs once per collection.
type gcSentinel struct{ _ [32]byte } // not a tiny allocation, which is freed with its neighbours

// startGCTuner sets the GOGC of gcPercentFor after every collection (from
// a finalizer, which the runtime runs after the collection that freed its
// object; each run arms the next).
func startGCTuner() {
	sample := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	cur := gcPercent
	var tune func(*gcSentinel)
	tune = func(*gcSentinel) {
		metrics.Read(sample)
		if sample[0].Value.Kind() == metrics.KindUint64 {
			if p := gcPercentFor(sample[0].Value.Uint64()); p != cur {
				cur = p
				debug.SetGCPercent(p)
			}
		}
		runtime.SetFinalizer(&gcSentinel{}, tune)
	}
	runtime.SetFinalizer(&gcSentinel{}, tune)
}

// settleHeap collects the loader's garbage before a search starts. The
// loaded program leaves its parsing and type checking behind (the heap
// after loading a program of the standard library from source is about
// twice its live size), and the collection that frees it otherwise falls
// wherever the heap reaches its goal: often in the first fraction of a
// second of the search, which it then shares a core with (marking the
// ~90 MB the program holds) for a tenth of a second or more. Collected
// here, the search starts with the headroom of gcPercentFor before its
// first collection. It is one collection either way, made earlier: the
// collector's total work is the same.
func settleHeap() {
	runtime.GC()
}
