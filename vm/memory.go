package vm

import (
	"fmt"
	"go/types"
)

// vmLimit is the interpreter's panic at one of the VM's size limits: the
// run stops as unsupported (runGuarded), not as an internal error.
type vmLimit string

// alloc creates a zeroed variable of type rt and returns its address.
func (t *thread) alloc(rt *RType) Pointer {
	if rt.Agg {
		if o := packedObject(rt, rt.Size); o != nil {
			t.account(len(o.pk.pages) + 1)
			return Pointer{Obj: t.s.heap.alloc(o, t.s.epoch)}
		}
	}
	if rt.Size > maxObjectCells {
		panic(vmLimit(fmt.Sprintf("an allocation of %s (more than the VM's %d cells for one object)", rt, maxObjectCells)))
	}
	if rt.Size == 0 {
		return Pointer{Obj: t.m.zerobase} // all zero-size variables share one address
	}
	t.account(rt.Size)
	var o *Object
	switch { // with its cells, in one allocation (newObjCells)
	case !rt.Agg:
		o = newObjCells(1)
		o.Cells[0] = rt.Zero()
		o.T = rt
	case len(rt.Zero().([]Value)) <= 4:
		z := rt.Zero().([]Value)
		o = newObjCells(len(z))
		copy(o.Cells, z)
		o.T = rt
	default:
		o = &Object{T: rt, Cells: cellsOf(rt)}
	}
	id := t.s.heap.alloc(o, t.s.epoch)
	return Pointer{Obj: id}
}

// newObject allocates an object and returns its id.
func (t *thread) newObject(o *Object) ObjID {
	if o.pk != nil {
		t.account(len(o.pk.pages) + 1) // a page table; pages are counted as they are made (heap.allocCells)
	}
	t.account(len(o.Cells))
	return t.s.heap.alloc(o, t.s.epoch)
}

// readCells returns the value of type rt stored at p (no checks).
func (s *State) readCells(p Pointer, rt *RType) Value {
	o := s.heap.get(p.Obj)
	if rt.Agg {
		return append([]Value(nil), o.cellRange(int(p.Off), int(p.Off)+rt.Size)...)
	}
	return o.cell(int(p.Off))
}

// writeCells stores v of type rt at p (no checks).
func (s *State) writeCells(p Pointer, rt *RType, v Value) {
	o := s.heap.mut(p.Obj, s.epoch)
	if rt.Agg {
		o.setCells(int(p.Off), v.([]Value))
		return
	}
	o.setCell(int(p.Off), v)
}

// load reads *p in frame fr. It returns ctlYield before a shared access
// that is a scheduling point, or a panic for a nil pointer.
func (t *thread) load(fr *frame, p Pointer, rt *RType, dst int) ctl {
	if p.Obj == 0 {
		return t.runtimePanic(fr, "invalid memory address or nil pointer dereference")
	}
	o := t.s.heap.get(p.Obj)
	if o.kind == objView { // an element of a slice viewing memory of another width (unsafeview.go)
		return t.loadView(fr, o, p, rt, dst)
	}
	if elem := t.castArrayElem(p, rt); elem != nil { // unsafeview_array.go
		return t.loadCastArray(fr, p, 0, rt, elem, dst)
	}
	if o.shared && p.Obj != t.m.zerobase { // zero-size variables share one address but no memory
		if fr.fn.shared && !t.hidden {
			if t.yieldBefore() {
				return ctlYield
			}
			t.sharedAccess(p.Obj, false)
		}
	}
	if t.s.race != nil {
		t.raceAccess(fr, p, rt.Size, false)
	}
	if o.pk != nil { // numbers only: no words of headers
		if int(p.Off)+rt.Size > o.pk.n {
			return t.unsupported(fr, "load past the end of an object (memory reinterpreted through unsafe.Pointer)")
		}
		if rt.Agg {
			fr.regs[dst] = o.pk.values(int(p.Off), int(p.Off)+rt.Size)
		} else {
			fr.regs[dst] = o.pk.get(int(p.Off))
		}
		return ctlNext
	}
	if rt.Agg && rt.Size == 3 && int(p.Off) < o.numCells() {
		if x, ok := o.cell(int(p.Off)).(Slice); ok && isSliceHeader(rt) {
			// *(*reflect.SliceHeader)(unsafe.Pointer(&s)): the slice's words
			fr.regs[dst] = []Value{t.s.addrOfPointer(Pointer{Obj: x.Obj, Off: x.Off}), x.Len, x.Cap}
			return ctlNext
		}
	}
	if rt.Agg && rt.Size == 2 && int(p.Off) < o.numCells() {
		if x, ok := o.cell(int(p.Off)).(Iface); ok && isStructOf(rt, ifaceShaped) {
			// *(*iface)(unsafe.Pointer(&x)): the interface's words (unsafeiface.go)
			if !emptyIfaceCell(o, p) {
				return t.unsupported(fr, "the words of an interface value as "+rt.String()+" (memory reinterpreted through unsafe.Pointer)")
			}
			fr.regs[dst] = []Value{t.typeWord(x.T, ifaceWordKind(rt)), dataWord(x)}
			return ctlNext
		}
		if x, ok := o.cell(int(p.Off)).(string); ok && isStringHeader(rt) {
			// *(*reflect.StringHeader)(unsafe.Pointer(&s)): the string's words (unsafestr.go)
			a, why := t.m.strDataWord(x, rt.fieldTs[0].T)
			if why != "" {
				return t.unsupported(fr, why)
			}
			fr.regs[dst] = []Value{a, len(x)}
			return ctlNext
		}
	}
	if int(p.Off)+rt.Size > o.numCells() {
		return t.unsupported(fr, t.m.pastEnd(o, p.Obj, true)) // cgo.go
	}
	if rt.Agg {
		if o.cp != nil {
			fr.regs[dst] = o.cp.values(int(p.Off), int(p.Off)+rt.Size) // (a copy)
		} else {
			fr.regs[dst] = append([]Value(nil), o.Cells[p.Off:int(p.Off)+rt.Size]...)
		}
	} else {
		v := o.cell(int(p.Off))
		switch x := v.(type) {
		case Slice:
			if isStringType(rt.T) {
				v = t.s.sliceString(x)
			} else if k := basicKindOf(rt.T); k == types.Uintptr { // reflect.SliceHeader's Data
				v = t.s.addrOfPointer(Pointer{Obj: x.Obj, Off: x.Off})
			} else if k == types.UnsafePointer { // a data word declared unsafe.Pointer (ristretto's stringStruct)
				v = Pointer{Obj: x.Obj, Off: x.Off}
			}
		case Pointer:
			if isUintptr(rt.T) { // a pointer read as a number
				v = t.s.addrOfPointer(x)
			}
		case Map:
			v = refWord(t.s, x.Obj, v, rt) // *(*unsafe.Pointer)(unsafe.Pointer(&m)): modern-go/reflect2's UnsafeIsNil
		case Chan:
			v = refWord(t.s, x.Obj, v, rt)
		case string:
			if isStringType(rt.T) {
				break
			}
			if isByteSlice(rt.T) {
				v = t.newBytes([]byte(x))
			} else if k := basicKindOf(rt.T); k == types.Uintptr || k == types.UnsafePointer {
				// reflect.StringHeader's Data (unsafestr.go), gjson's unsafe.Pointer (unsafestrdata.go)
				a, why := t.m.strDataWord(x, rt.T)
				if why != "" {
					return t.unsupported(fr, why)
				}
				v = a
			}
		case strPtr:
			if k := basicKindOf(rt.T); k == types.Uintptr {
				v = x.addr()
			} else if k != types.UnsafePointer {
				return t.loadFromStrData(fr, o, p, x, rt, dst) // *(*[]byte)(unsafe.Pointer(&sliceHeader{data: ...}))
			}
		case uintptr:
			if k := basicKindOf(rt.T); k != types.Uintptr && k != types.UnsafePointer {
				// a slice or string built from a header's words: *(*[]byte)(unsafe.Pointer(&sliceHeader))
				return t.loadFromHeader(fr, o, p, rt, dst)
			}
		case Iface:
			if _, ok := rt.T.Underlying().(*types.Interface); !ok { // an interface's type word read through unsafe (unsafeiface.go)
				k := basicKindOf(rt.T)
				if k != types.Uintptr && k != types.UnsafePointer {
					return t.unsupported(fr, "an interface's type word read as "+rt.String()+" (memory reinterpreted through unsafe.Pointer)")
				}
				if !emptyIfaceCell(o, p) {
					return t.unsupported(fr, "the words of a non-empty interface value (memory reinterpreted through unsafe.Pointer)")
				}
				v = t.typeWord(x.T, k)
			}
		}
		fr.regs[dst] = v
	}
	return ctlNext
}

// refWord is a map's or channel's reference (the object obj; 0: nil) read
// as rt: a map or channel variable is one pointer word in Go, which
// unsafe.Pointer and uintptr read as that pointer (nil for a nil map, as
// reflect2's IsNil checks); other types keep v.
func refWord(s *State, obj ObjID, v Value, rt *RType) Value {
	switch basicKindOf(rt.T) {
	case types.UnsafePointer:
		return Pointer{Obj: obj}
	case types.Uintptr:
		if obj == 0 {
			return uintptr(0)
		}
		return s.addrOfPointer(Pointer{Obj: obj})
	}
	return v
}

// A load of a string from a []byte variable, or of a []byte from a string
// variable, is the unsafe idiom *(*string)(unsafe.Pointer(&b)) (and its
// reverse): the VM's string is a Go string, not a header over the bytes,
// so the load converts. The []byte made from a string is a copy: writing
// through it (undefined in Go) does not change the string. Likewise a
// uintptr loaded from a cell holding a slice (the Data word of
// (*reflect.SliceHeader)(unsafe.Pointer(&s))) or a pointer is its address
// (unsafeptr.go); a load past the end of the object (SliceHeader's Len
// over a one-cell slice variable) stops the run as unsupported rather than
// read a wrong value.

// isSliceHeader reports whether rt is a struct of a uintptr and two ints,
// the layout of a slice's words (reflect.SliceHeader).
func isSliceHeader(rt *RType) bool {
	st, ok := rt.T.Underlying().(*types.Struct)
	if !ok || st.NumFields() != 3 || !isUintptr(st.Field(0).Type()) {
		return false
	}
	for i := 1; i < 3; i++ {
		if b, ok := st.Field(i).Type().Underlying().(*types.Basic); !ok || b.Kind() != types.Int {
			return false
		}
	}
	return true
}

func isUintptr(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Kind() == types.Uintptr
}

func isStringType(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&types.IsString != 0
}

func isByteSlice(t types.Type) bool {
	sl, ok := t.Underlying().(*types.Slice)
	if !ok {
		return false
	}
	b, ok := sl.Elem().Underlying().(*types.Basic)
	return ok && (b.Kind() == types.Byte || b.Kind() == types.Uint8)
}

// sliceString is the string a []byte's elements spell (v itself when the
// elements are not bytes).
func (s *State) sliceString(v Slice) Value {
	if v.Obj == 0 || v.Len == 0 {
		return ""
	}
	o := s.heap.get(v.Obj)
	if int(v.Off)+v.Len > o.numCells() {
		return v
	}
	if o.pk != nil && o.pk.k == pkUint8 {
		b := make([]byte, v.Len)
		o.pk.readBytes(int(v.Off), b)
		return string(b)
	}
	b := make([]byte, v.Len)
	for i, c := range o.cellRange(int(v.Off), int(v.Off)+v.Len) {
		u, ok := c.(uint8)
		if !ok {
			return v
		}
		b[i] = u
	}
	return string(b)
}

// observe makes reading the state of shared object obj (a map's length or
// entries: what other goroutines change) a scheduling point, as a load of
// shared memory is, so partial-order reduction sees the transition depend
// on their writes. It returns ctlYield before the read.
func (t *thread) observe(fr *frame, obj ObjID, op string) ctl {
	if obj == 0 || !fr.fn.shared || t.hidden || !t.s.heap.get(obj).shared {
		return ctlNext
	}
	return t.observed(obj, op)
}

// observeChan makes reading the length of shared channel obj a scheduling
// point under either scheduling mode: len of a channel observes sends and
// receives without being ordered with them (no happens-before, no race
// check), so it cannot move to the goroutine's previous synchronization as
// plain accesses do (guide/syncpoints.go) and counts as one itself
// (TestRaceChanSendLen: a loop on len(c) ends only after a send).
func (t *thread) observeChan(obj ObjID) ctl {
	if obj == 0 || t.hidden || !t.s.heap.get(obj).shared {
		return ctlNext
	}
	return t.observed(obj, "len")
}

func (t *thread) observed(obj ObjID, op string) ctl {
	if t.yieldBefore() {
		return ctlYield
	}
	t.s.last.Op = op
	t.touch(obj, false)
	return ctlNext
}

// store writes *p = v in frame fr.
func (t *thread) store(fr *frame, p Pointer, rt *RType, v Value, hasRefs bool) ctl {
	if p.Obj == 0 {
		return t.runtimePanic(fr, "invalid memory address or nil pointer dereference")
	}
	o := t.s.heap.get(p.Obj)
	if o.kind == objView { // an element of a slice viewing memory of another width (unsafeview.go)
		return t.storeView(fr, o, p, rt, v)
	}
	if elem := t.castArrayElem(p, rt); elem != nil { // unsafeview_array.go
		return t.storeCastArray(fr, p, 0, rt, elem, v)
	}
	if o.shared && p.Obj != t.m.zerobase {
		if fr.fn.shared && !t.hidden {
			if t.yieldBefore() {
				return ctlYield
			}
			t.sharedAccess(p.Obj, true)
		}

		if hasRefs {
			t.share(v)
		}
	}
	if rt.Agg && rt.Size == 2 && int(p.Off) < o.numCells() && emptyIfaceCell(o, p) && isStructOf(rt, ifaceShaped) {
		// *(*iface)(unsafe.Pointer(&x)) = words: the interface they make (unsafeiface.go)
		if t.s.race != nil {
			t.raceAccess(fr, p, 1, true)
		}
		if ws, ok := v.([]Value); !ok || len(ws) != 2 || !t.storeIfaceWords(p, ws) {
			return t.unsupported(fr, "the words of an interface stored from "+rt.String()+" that no interface value gave (memory reinterpreted through unsafe.Pointer)")
		}
		return ctlNext
	}
	if int(p.Off)+rt.Size > o.numCells() {
		return t.unsupported(fr, t.m.pastEnd(o, p.Obj, false)) // cgo.go
	}
	if t.s.race != nil {
		t.raceAccess(fr, p, rt.Size, true)
	}
	t.s.writeCells(p, rt, v)
	if o.T != rt && o.T != nil && o.T.Size == 3 && o.T.isReflectValue() && o.numCells() == 3 {
		// a reflect.Value's words written through unsafe (unsafevalue.go)
		return t.remakeValueWords(fr, o, p.Obj)
	}
	return ctlNext
}

// share marks every object reachable from v as shared between goroutines.
func (t *thread) share(v Value) {
	var stack []ObjID
	push := func(id ObjID) {
		if id == 0 {
			return
		}
		o := t.s.heap.get(id)
		if o == nil || o.shared {
			return
		}
		t.s.heap.mut(id, t.s.epoch).shared = true
		stack = append(stack, id)
	}
	var visit func(v Value)
	visit = func(v Value) {
		switch x := v.(type) {
		case Pointer:
			push(x.Obj)
		case Slice:
			push(x.Obj)
		case Map:
			push(x.Obj)
		case Chan:
			push(x.Obj)
		case Iface:
			visit(x.V)
		case weakRef: // (natives_gc.go)
			push(x.p.Obj)
		case []Value:
			for _, c := range x {
				visit(c)
			}
		case Tuple:
			for _, c := range x {
				visit(c)
			}
		case *Closure:
			if x != nil {
				for _, c := range x.Env {
					visit(c)
				}
				visit(x.Bound)
			}
		}
	}
	visit(v)
	for len(stack) > 0 {
		id := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		o := t.s.heap.get(id)
		for c := range o.refCells() {
			visit(c)
		}
		if o.Map != nil {
			for _, e := range o.Map.ents {
				if !e.dead {
					visit(e.k)
					visit(e.v)
				}
			}
		}
		if o.Chan != nil {
			for _, c := range o.Chan.buf {
				visit(c)
			}
		}
	}
}

// maxObjectCells bounds the size of one heap object; larger allocations
// stop the run (the VM uses 16 bytes or more per cell).
const maxObjectCells = 1 << 22

// maxAllocCells bounds the cells allocated between two collections along
// a path; past it the run stops (the VM uses 16 bytes or more per cell).
const maxAllocCells = 1 << 24

// account counts n newly allocated cells and stops a run that allocates
// without bound.
func (t *thread) account(n int) {
	t.s.heap.allocCells += int64(n)
	if t.s.heap.allocCells > maxAllocCells {
		panic(vmLimit(fmt.Sprintf("more than %d cells of memory allocated in one run (the VM's limit)", maxAllocCells)))
	}
}
