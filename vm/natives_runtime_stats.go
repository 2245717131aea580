package vm

// The runtime's counters of what the VM does not do: calls into C and
// garbage collections.
//
//   - runtime.NumCgoCall: 0. The VM runs no C code (a cgo call stops the
//     run as unsupported), so the program it runs has made none.
//   - runtime/debug.ReadGCStats runs from its source over
//     runtime/debug.readGCStats, whose model is the runtime's answer
//     before the first collection (the VM's memory is never collected, as
//     runtime.ReadMemStats's zero statistics say): no pauses, last
//     collection at Unix time 0, zero collections, zero total pause.

func init() {
	def("runtime.NumCgoCall", nativeRuntimeNumCgoCall)
	def("runtime/debug.readGCStats", nativeRuntimeDebugReadGCStats)
}

// nativeRuntimeNumCgoCall is runtime.NumCgoCall.
func nativeRuntimeNumCgoCall(t *thread, args []Value) (Value, ctl) { return int64(0), ctlNext }

// nativeRuntimeDebugReadGCStats is runtime/debug.readGCStats(pauses
// *[]time.Duration): as the runtime's readGCStats_m with no collection,
// it sets the first three elements of the slice's capacity to 0 (last
// collection, number of collections, total pause) and *pauses to them.
func nativeRuntimeDebugReadGCStats(t *thread, args []Value) (Value, ctl) {
	p, ok := args[0].(Pointer)
	if !ok || p.Obj == 0 {
		return nil, t.runtimePanic(t.g.top, "invalid memory address or nil pointer dereference")
	}
	sl, ok := t.s.heap.get(p.Obj).Cells[p.Off].(Slice)
	if !ok || sl.Cap < 3 {
		return nil, t.unsupported(t.g.top, "runtime/debug.readGCStats with a short slice (the runtime throws)")
	}
	o := t.s.heap.mut(sl.Obj, t.s.epoch)
	for i := 0; i < 3; i++ {
		o.Cells[int(sl.Off)+i] = int64(0)
	}
	sl.Len = 3
	t.s.heap.mut(p.Obj, t.s.epoch).Cells[p.Off] = sl
	return nil, ctlNext
}
