package vm

import "fmt"

// runtime.memclrNoHeapPointers pulled by //go:linkname (dgraph-io/ristretto's
// z.Memclr clears a []byte with it): n bytes at p set to zero. The VM
// clears cells holding bytes one by one (a write the race detector sees);
// memory of another shape (words, pointers) stops the run as unsupported.

func init() {
	linknameTargets["runtime.memclrNoHeapPointers"] = &nativeFunc{name: "runtime.memclrNoHeapPointers", fn: nativeLinkMemclr}
}

func nativeLinkMemclr(t *thread, args []Value) (Value, ctl) {
	n := int(toUint64(args[1]))
	if n == 0 {
		return nil, ctlNext
	}
	p, ok := args[0].(Pointer)
	if !ok || p.Obj == 0 {
		return nil, t.unsupported(t.g.top, fmt.Sprintf("runtime.memclrNoHeapPointers of %d bytes at a pointer that names no variable's bytes", n))
	}
	o := t.s.heap.get(p.Obj)
	if int(p.Off)+n > o.numCells() {
		return nil, t.unsupported(t.g.top, "runtime.memclrNoHeapPointers past the end of an object")
	}
	if o.pk != nil && o.pk.k == pkUint8 { // bytes (packed.go)
		if t.s.race != nil && t.g.top != nil && t.g.top.fn != nil {
			t.raceAccess(t.g.top, p, n, true)
		}
		t.s.heap.mut(p.Obj, t.s.epoch).pk.zero(int(p.Off), int(p.Off)+n, t.s.epoch)
		return nil, ctlNext
	}
	for _, c := range o.cellRange(int(p.Off), int(p.Off)+n) {
		if _, ok := c.(uint8); !ok {
			return nil, t.unsupported(t.g.top, "runtime.memclrNoHeapPointers over memory that does not hold bytes")
		}
	}
	if t.s.race != nil && t.g.top != nil && t.g.top.fn != nil {
		t.raceAccess(t.g.top, p, n, true)
	}
	o = t.s.heap.mut(p.Obj, t.s.epoch)
	for i := range n {
		o.setCell(int(p.Off)+i, uint8(0))
	}
	return nil, ctlNext
}
