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
			t.s.last.Op = "read"
			t.touch(p.Obj, false)
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
			t.s.last.Op = "write"
			t.touch(p.Obj, true)
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

// makeSlice allocates a backing array of cap elements of type elem.
func (t *thread) makeSlice(elem *RType, length, capacity int) Slice {
	if o := packedObject(elem, capacity*elem.Size); o != nil {
		return Slice{Obj: t.newObject(o), Len: length, Cap: capacity}
	}
	if capacity*elem.Size > maxObjectCells {
		panic(vmLimit(fmt.Sprintf("an allocation of %d elements of %s (more than the VM's %d cells for one object)", capacity, elem, maxObjectCells)))
	}
	cells := make([]Value, capacity*elem.Size)
	if elem.Agg {
		z := elem.Zero().([]Value)
		for i := 0; i < capacity; i++ {
			copy(cells[i*elem.Size:], z)
		}
	} else {
		for i := range cells {
			cells[i] = elem.Zero()
		}
	}
	id := t.newObject(&Object{T: elem, Cells: cells})
	return Slice{Obj: id, Len: length, Cap: capacity}
}

// sliceElems returns the cells of a slice's elements (read-only view).
func (s *State) sliceCells(sl Slice, elem *RType) []Value {
	if sl.Obj == 0 || sl.Len == 0 {
		return nil
	}
	o := s.heap.get(sl.Obj)
	if o.kind == objView {
		return s.viewCells(o, sl)
	}
	return o.cellRange(int(sl.Off), int(sl.Off)+sl.Len*elem.Size)
}

// bytesOf returns the contents of a []byte.
func (s *State) bytesOf(sl Slice) []byte {
	if sl.Obj != 0 && sl.Len > 0 {
		if o := s.heap.get(sl.Obj); o.pk != nil && o.pk.k == pkUint8 {
			b := make([]byte, sl.Len)
			o.pk.readBytes(int(sl.Off), b)
			return b
		}
	}
	cells := s.sliceCells(sl, nil8)
	b := make([]byte, len(cells))
	for i, c := range cells {
		b[i] = c.(uint8)
	}
	return b
}

// nil8 is a placeholder element type of size 1 for byte slices.
var nil8 = &RType{Size: 1}

// newBytes makes a []byte holding b.
func (t *thread) newBytes(b []byte) Slice {
	if o := packedObject(t.m.byteType(), len(b)); o != nil {
		o.pk.writeBytes(0, b, t.s.epoch)
		return Slice{Obj: t.newObject(o), Len: len(b), Cap: len(b)}
	}
	cells := make([]Value, len(b))
	for i, c := range b {
		cells[i] = c
	}
	id := t.newObject(&Object{T: t.m.byteType(), Cells: cells})
	return Slice{Obj: id, Len: len(b), Cap: len(b)}
}

// newRunes makes a []rune holding rs.
func (t *thread) newRunes(rs []rune) Slice {
	if len(rs) >= packMin {
		vals := make([]Value, len(rs))
		for i, r := range rs {
			vals[i] = int32(r)
		}
		return t.newSliceOf(t.m.runeType(), vals)
	}
	cells := make([]Value, len(rs))
	for i, c := range rs {
		cells[i] = int32(c)
	}
	id := t.newObject(&Object{T: t.m.runeType(), Cells: cells})
	return Slice{Obj: id, Len: len(rs), Cap: len(rs)}
}

// newSliceOf makes a slice of elem holding vals (one Value per element).
func (t *thread) newSliceOf(elem *RType, vals []Value) Slice {
	sl := t.makeSlice(elem, len(vals), len(vals))
	o := t.s.heap.mut(sl.Obj, t.s.epoch)
	for i, v := range vals {
		if elem.Agg {
			o.setCells(i*elem.Size, v.([]Value))
		} else {
			o.setCell(i, v)
		}
	}
	return sl
}

// sliceElem returns element i of a slice.
func (s *State) sliceElem(sl Slice, elem *RType, i int) Value {
	return s.readCells(Pointer{Obj: sl.Obj, Off: sl.Off + int32(i*elem.Size)}, elem)
}

// appendSlice implements append(sl, vals...) with Go's growth rule.
func (t *thread) appendSlice(sl Slice, elem *RType, vals []Value) Slice {
	n := len(vals)
	if n == 0 {
		return sl
	}
	if sl.Len+n <= sl.Cap {
		o := t.s.heap.mut(sl.Obj, t.s.epoch)
		base := int(sl.Off) + sl.Len*elem.Size
		for i, v := range vals {
			if elem.Agg {
				o.setCells(base+i*elem.Size, v.([]Value))
			} else {
				o.setCell(base+i, v)
			}
		}
		sl.Len += n
		return sl
	}
	newCap := growCap(sl.Cap, sl.Len+n, elem.byteSize(), !elem.hasPointers())
	ns := t.makeSlice(elem, sl.Len+n, newCap)
	o := t.s.heap.mut(ns.Obj, t.s.epoch)
	if sl.Len > 0 {
		t.s.copyInto(o, 0, sl, elem)
	}
	base := sl.Len * elem.Size
	for i, v := range vals {
		if elem.Agg {
			o.setCells(base+i*elem.Size, v.([]Value))
		} else {
			o.setCell(base+i, v)
		}
	}
	return ns
}

// copySlice implements copy(dst, src) for cells of type elem.
func (t *thread) copyCells(dst Slice, src []Value, elem *RType) int {
	n := dst.Len
	if m := len(src) / max(elem.Size, 1); m < n {
		n = m
	}
	if elem.Size == 0 {
		return min(dst.Len, len(src))
	}
	if n == 0 {
		return 0
	}
	if t.s.heap.get(dst.Obj).kind == objView {
		return t.copyToView(dst, src[:n*elem.Size])
	}
	tmp := append([]Value(nil), src[:n*elem.Size]...)
	o := t.s.heap.mut(dst.Obj, t.s.epoch)
	o.setCells(int(dst.Off), tmp)
	return n
}

// copyInto copies the elements of slice src into mutable object o from
// cell at, bytes to bytes when both are packed alike.
func (s *State) copyInto(o *Object, at int, src Slice, elem *RType) {
	if so := s.heap.get(src.Obj); o.pk != nil && so.pk != nil && so.pk.k == o.pk.k {
		o.pk.copyFrom(at, so.pk, int(src.Off), src.Len*elem.Size, o.epoch)
		return
	}
	o.setCells(at, s.sliceCells(src, elem))
}

func boundsMsg(i, n int) string {
	return fmt.Sprintf("index out of range [%d] with length %d", i, n)
}

// copyPacked is copy(dst, src) when dst is packed and src is a string or a
// slice packed alike: bytes copied as bytes. ok is false otherwise.
func (t *thread) copyPacked(dst Slice, src Value, elem *RType) (n int, ok bool) {
	if dst.Obj == 0 || dst.Len == 0 || elem.Size == 0 {
		return 0, false
	}
	do := t.s.heap.get(dst.Obj)
	if do.pk == nil {
		return 0, false
	}
	switch x := src.(type) {
	case string:
		if do.pk.k != pkUint8 {
			return 0, false
		}
		n = min(dst.Len, len(x))
		if n > 0 {
			t.s.heap.mut(dst.Obj, t.s.epoch).pk.writeBytes(int(dst.Off), []byte(x[:n]), t.s.epoch)
		}
		return n, true
	case Slice:
		n = min(dst.Len, x.Len)
		if n == 0 {
			return 0, true
		}
		so := t.s.heap.get(x.Obj)
		if so.pk == nil || so.pk.k != do.pk.k {
			return 0, false
		}
		mo := t.s.heap.mut(dst.Obj, t.s.epoch)
		so = t.s.heap.get(x.Obj) // (the same object as mo when they overlap)
		mo.pk.copyFrom(int(dst.Off), so.pk, int(x.Off), n*elem.Size, t.s.epoch)
		return n, true
	}
	return 0, false
}
