package vm

import (
	"go/types"
	"strings"

	"golang.org/x/tools/go/ssa"
)

// The runtime's counters of what the VM does not do: calls into C and
// garbage collections.
//
//   - runtime.ThreadCreateProfile: one thread (the VM runs the program's
//     goroutines on one; prometheus/client_golang's process collector
//     reports the count).
//   - runtime.NumCgoCall: 0. The VM runs no C code (a cgo call stops the
//     run as unsupported), so the program it runs has made none.
//   - garbage collections: the VM's own collections are invisible to the
//     program; the ones it forces with runtime.GC are counted in the state
//     (State.numGC) and reported by runtime.ReadMemStats (NumGC,
//     NumForcedGC) and by runtime/debug.ReadGCStats, which runs from its
//     source over runtime/debug.readGCStats: one pause of gcPause per
//     forced collection, ended at the time of the last one.
//   - the heap's size: runtime.ReadMemStats reports, in HeapAlloc, Alloc,
//     HeapInuse, HeapSys and Sys, the bytes of the objects the program can
//     reach (as the collector marks them for runtime.GC, natives_gc.go),
//     and their number in HeapObjects: the heap as a collection would
//     leave it, so that a test that allocates 100 MB and keeps it sees
//     them (bytedance/gopkg's gctuner TestMem saw 0 and failed: a false
//     alarm) and a test that drops what it made sees it go. An object's
//     bytes are its packed elements' (a []byte: one each) or 8 per cell
//     (a word per field, as gc lays out most of them). The counts of
//     allocations are the VM's: Mallocs the objects it allocated, Frees
//     those of them no longer reachable, TotalAlloc the reachable bytes
//     and a word per freed object — more than gc's, whose escape analysis
//     keeps many values on the stack, which the VM does not have. So a
//     test that counts allocations to assert on them is not checked:
//     testing.AllocsPerRun stops a run as unsupported, and so does a call
//     of ReadMemStats from a function of a _test.go file that reads one
//     of the counts (ttlcache's allocsPerSingleRun expected 1 and saw 0:
//     a false alarm); a library that reads them to report them
//     (armon/go-metrics' EmitRuntimeStats, whose test wants more than 100
//     mallocs: a false alarm when they were 0) goes on.

func init() {
	def("runtime.NumCgoCall", nativeRuntimeNumCgoCall)
	def("runtime.ThreadCreateProfile", nativeRuntimeThreadCreateProfile)
	def("runtime/debug.readGCStats", nativeRuntimeDebugReadGCStats)
	def("runtime.ReadMemStats", nativeRuntimeReadMemStats)
}

// gcPause is the pause of each collection the program forced: 100 µs, a
// small heap's stop-the-world time (a pause of 0 ns is one no run has:
// armon/go-metrics' test wants more than 100 ns in all).
const gcPause = 100_000

// nativeRuntimeReadMemStats is runtime.ReadMemStats: the collections the
// program forced (NumGC, NumForcedGC, LastGC, PauseTotalNs and PauseNs,
// each pause gcPause) and the
// reachable heap (see the top of this file); the other statistics are left
// as the caller's struct holds them.
func nativeRuntimeReadMemStats(t *thread, args []Value) (Value, ctl) {
	p, ok := args[0].(Pointer)
	if !ok || p.Obj == 0 {
		return nil, t.runtimePanic(t.g.top, "invalid memory address or nil pointer dereference")
	}
	rt := t.m.lookupType("runtime", "MemStats")
	if rt == nil {
		return nil, ctlNext
	}
	if fn := t.callerFunc(); fn != nil && t.m.readsAllocCounts(fn) {
		return nil, t.unsupported(t.g.top, "runtime.MemStats's allocation counts (Mallocs, Frees, TotalAlloc: the gc compiler's escape analysis, not modelled)")
	}
	t.touch(AllObjects, false) // (what every goroutine allocated)
	set := func(name string, v uint64) {
		if off, _, ok := t.m.testField(rt, name); ok {
			t.setCell(Pointer{Obj: p.Obj, Off: p.Off + off}, 0, v)
		}
	}
	for _, name := range []string{"NumGC", "NumForcedGC"} { // (uint32)
		if off, _, ok := t.m.testField(rt, name); ok {
			t.setCell(Pointer{Obj: p.Obj, Off: p.Off + off}, 0, t.s.numGC)
		}
	}
	set("PauseTotalNs", uint64(t.s.numGC)*gcPause)
	if off, _, ok := t.m.testField(rt, "PauseNs"); ok { // (the last 256, a circular buffer)
		for i := uint32(0); i < min(t.s.numGC, 256); i++ {
			t.setCell(Pointer{Obj: p.Obj, Off: p.Off + off + int32((t.s.numGC-1-i)%256)}, 0, uint64(gcPause))
		}
	}
	if t.s.numGC > 0 {
		set("LastGC", uint64(t.s.forcedGCAt))
	}
	bytes, objects := t.s.reachableHeap()
	for _, name := range []string{"HeapAlloc", "Alloc", "HeapInuse", "HeapSys", "Sys"} {
		set(name, bytes)
	}
	set("HeapObjects", objects)
	// the allocations the VM made (a count gc's escape analysis would make
	// smaller), of which those no longer reachable were freed
	mallocs := uint64(t.s.heap.next - 1)
	set("Mallocs", mallocs)
	set("Frees", mallocs-min(objects, mallocs))
	set("TotalAlloc", bytes+8*(mallocs-min(objects, mallocs)))
	return nil, ctlNext
}

// reachableHeap returns the bytes and the number of the objects the
// program can reach (see the top of this file).
func (s *State) reachableHeap() (bytes, objects uint64) {
	for id := range s.gcReached(s.m.finTab) {
		o := s.heap.get(id)
		if o == nil {
			continue
		}
		objects++
		switch {
		case o.pk != nil:
			bytes += uint64(o.pk.n) * uint64(o.pk.w)
		default:
			bytes += 8 * uint64(o.numCells())
		}
		if o.Map != nil {
			bytes += 48 * uint64(o.Map.live)
		}
		if o.Chan != nil {
			bytes += 96
		}
	}
	return bytes, objects
}

// nativeRuntimeThreadCreateProfile is runtime.ThreadCreateProfile(p):
// one record, of an empty stack; ok when p has room for it.
func nativeRuntimeThreadCreateProfile(t *thread, args []Value) (Value, ctl) {
	sl, _ := args[0].(Slice)
	return Tuple{1, sl.Len >= 1}, ctlNext
}

// nativeRuntimeNumCgoCall is runtime.NumCgoCall.
func nativeRuntimeNumCgoCall(t *thread, args []Value) (Value, ctl) { return int64(0), ctlNext }

// nativeRuntimeDebugReadGCStats is runtime/debug.readGCStats(pauses
// *[]time.Duration), as the runtime's readGCStats_m: n = the collections
// the program forced (runtime.GC; at most 256) pauses of gcPause, their n end
// times (the last forced collection's), then the last collection's time,
// the number of collections and the total pause.
func nativeRuntimeDebugReadGCStats(t *thread, args []Value) (Value, ctl) {
	p, ok := args[0].(Pointer)
	if !ok || p.Obj == 0 {
		return nil, t.runtimePanic(t.g.top, "invalid memory address or nil pointer dereference")
	}
	sl, ok := t.s.heap.get(p.Obj).cell(int(p.Off)).(Slice)
	n := int(min(t.s.numGC, 256))
	if !ok || sl.Cap < 2*n+3 {
		return nil, t.unsupported(t.g.top, "runtime/debug.readGCStats with a short slice (the runtime throws)")
	}
	o := t.s.heap.mut(sl.Obj, t.s.epoch)
	var last int64
	if n > 0 {
		last = t.s.forcedGCAt
	}
	for i := 0; i < 2*n+3; i++ {
		v := int64(0)
		switch {
		case i < n:
			v = gcPause
		case i >= n && i < 2*n, i == 2*n:
			v = last
		case i == 2*n+1:
			v = int64(t.s.numGC)
		case i == 2*n+2:
			v = int64(t.s.numGC) * gcPause
		}
		o.setCell(int(sl.Off)+i, v)
	}
	sl.Len = 2*n + 3
	t.s.heap.mut(p.Obj, t.s.epoch).setCell(int(p.Off), sl)
	return nil, ctlNext
}

// callerFunc returns the innermost Go function on the running goroutine's
// stack (the caller of a native; nil: none).
func (t *thread) callerFunc() *ssa.Function {
	for f := t.g.top; f != nil; f = f.caller {
		if f.fn != nil {
			return f.fn.ssa
		}
	}
	return nil
}

// readsAllocCounts reports whether fn, a function of a _test.go file,
// reads the field Mallocs, Frees or TotalAlloc of a runtime.MemStats
// (cached by function).
func (m *Machine) readsAllocCounts(fn *ssa.Function) bool {
	if v, ok := m.allocReads.Load(fn); ok {
		return v.(bool)
	}
	if !strings.HasSuffix(m.prog.Fset.Position(fn.Pos()).Filename, "_test.go") {
		m.allocReads.Store(fn, false)
		return false
	}
	isCount := func(st types.Type, field int) bool {
		if p, ok := st.Underlying().(*types.Pointer); ok {
			st = p.Elem()
		}
		n, ok := types.Unalias(st).(*types.Named)
		if !ok || n.Obj().Pkg() == nil || n.Obj().Pkg().Path() != "runtime" || n.Obj().Name() != "MemStats" {
			return false
		}
		s, ok := n.Underlying().(*types.Struct)
		if !ok || field >= s.NumFields() {
			return false
		}
		switch s.Field(field).Name() {
		case "Mallocs", "Frees", "TotalAlloc":
			return true
		}
		return false
	}
	reads := false
	for _, b := range fn.Blocks {
		for _, in := range b.Instrs {
			switch x := in.(type) {
			case *ssa.FieldAddr:
				reads = reads || isCount(x.X.Type(), x.Field)
			case *ssa.Field:
				reads = reads || isCount(x.X.Type(), x.Field)
			}
		}
	}
	m.allocReads.Store(fn, reads)
	return reads
}
