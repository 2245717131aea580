package vm

// The runtime's counters of what the VM does not do: calls into C and
// garbage collections.
//
//   - runtime.NumCgoCall: 0. The VM runs no C code (a cgo call stops the
//     run as unsupported), so the program it runs has made none.
//   - garbage collections: the VM's own collections are invisible to the
//     program; the ones it forces with runtime.GC are counted in the state
//     (State.numGC) and reported by runtime.ReadMemStats (NumGC,
//     NumForcedGC) and by runtime/debug.ReadGCStats, which runs from its
//     source over runtime/debug.readGCStats: one pause of 0 ns per forced
//     collection, ended at the time of the last one.

func init() {
	def("runtime.NumCgoCall", nativeRuntimeNumCgoCall)
	def("runtime/debug.readGCStats", nativeRuntimeDebugReadGCStats)
}

// nativeRuntimeNumCgoCall is runtime.NumCgoCall.
func nativeRuntimeNumCgoCall(t *thread, args []Value) (Value, ctl) { return int64(0), ctlNext }

// nativeRuntimeDebugReadGCStats is runtime/debug.readGCStats(pauses
// *[]time.Duration), as the runtime's readGCStats_m: n = the collections
// the program forced (runtime.GC; at most 256) pauses of 0 ns, their n end
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
		case i >= n && i < 2*n, i == 2*n:
			v = last
		case i == 2*n+1:
			v = int64(t.s.numGC)
		}
		o.setCell(int(sl.Off)+i, v)
	}
	sl.Len = 2*n + 3
	t.s.heap.mut(p.Obj, t.s.epoch).setCell(int(p.Off), sl)
	return nil, ctlNext
}
