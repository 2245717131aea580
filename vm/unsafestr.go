package vm

import (
	"fmt"
	"go/types"
	"sort"
	"sync"
	"unsafe"
)

// The address of a string's bytes.
//
// A VM string is a Go string of the gmc process itself, so it has no
// address in the VM's memory of cells. Yet real modules hash strings
// through their bytes (puzpuzpuz/xsync: StringHeader.Data passed to
// runtime.memhash; cornelk/hashmap: a []byte built from a SliceHeader over
// the string's Data), find where a substring starts in its parent by
// subtracting data pointers (tidwall/gjson's fillIndex, getBytes), and Go's
// own tests compare string addresses (which substring shares its parent's
// bytes, which copy does not). What Go guarantees there is the sharing:
// s[i:j] points i bytes into s's bytes, string(b) and s+t copy. The VM's
// string operations are the host's own (slicing shares, conversion
// copies), so the host's backing arrays have exactly Go's sharing, and the
// VM numbers the host's addresses:
//
//   - an arena is a 64 MiB-aligned window of the host's address space
//     (the unit of Go's heap, which no small object crosses); arena k
//     (from 1, in the order the machine first saw them) has the addresses
//     strAddrBase + k<<32 + 2^31 + the host offset from the window's start,
//     far above every address of a heap cell (unsafeptr.go). Two strings
//     of one backing array therefore get numbers exactly their host
//     distance apart, in whatever order and in whatever pieces the program
//     sees them;
//   - the bytes the program has seen are kept (alive) as disjoint ranges of
//     host memory: a string overlapping seen ranges joins them into one
//     (overlapping live memory is one allocation), and takes the arena of
//     the ranges it joins, so a backing array that straddles two windows
//     keeps one numbering;
//   - such a number converted to unsafe.Pointer is a strPtr: read-only bytes
//     of an arena at an offset. Loading a byte or an integer through it
//     reads the bytes (little-endian), unsafe.Add moves it, unsafe.String
//     gives the string back (sharing, as Go), unsafe.Slice a copy of the
//     bytes (writing through it is undefined in Go: string memory may be
//     read-only); a store through it stops the run as unsupported;
//   - unsafe.StringData returns the same strPtr, so its pointer and
//     StringHeader.Data agree.
//
// The numbers are the machine's, not the state's: a replay in a new
// machine may number arenas differently, and the host may place a string
// made at run time elsewhere in its window (as two runs of a Go program
// place strings at different addresses); only sharing and offsets are
// exact. A string overlapping seen ranges of two arenas (a backing array
// straddling a window boundary seen first from both sides) cannot get one
// number for both and stops the run as unsupported.

const (
	strAddrBase    = 0x4000_0000_0000_0000
	strRegionShift = 32
	strAnchor      = 1 << 31
	strArenaShift  = 26
)

// strArena is one window of the host's address space.
type strArena struct {
	id   int
	host uintptr // the window's first host address
}

// strRange is host memory the program has seen as a string's bytes.
type strRange struct {
	s  string // the bytes (keeps the backing array alive)
	ar *strArena
}

func (r *strRange) lo() uintptr { return hostAddr(r.s) }
func (r *strRange) hi() uintptr { return hostAddr(r.s) + uintptr(len(r.s)) }

// strRegions numbers the machine's arenas and keeps the ranges seen; safe
// for concurrent use.
type strRegions struct {
	mu     sync.Mutex
	byID   []*strArena           // arena k at k-1
	byHost map[uintptr]*strArena // by window
	sorted []*strRange           // by lo, disjoint
}

// strPtr is an unsafe.Pointer (or *byte) to the byte at host offset off
// of an arena's window.
type strPtr struct {
	r   *strArena
	off int64
}

func (p strPtr) hashInto(h *hasher) {
	h.int(int64(p.r.id))
	h.int(p.off)
}

func hostAddr(s string) uintptr { return uintptr(unsafe.Pointer(unsafe.StringData(s))) }

// strAddr is the number of the address of s's bytes, or why it has none:
// an empty string (a VM value boxes "" without its pointer, while Go's
// s[len(s):] still points into s: no exact value), or a string overlapping
// ranges of two arenas.
func (m *Machine) strAddr(s string) (uintptr, string) {
	if s == "" {
		return 0, "the address of an empty string's bytes (the VM keeps none; Go's depends on where it was cut from)"
	}
	p, ok := m.strPointer(s)
	if !ok {
		return 0, strApartMsg
	}
	return p.addr(), ""
}

func (p strPtr) addr() uintptr {
	return uintptr(strAddrBase + uint64(p.r.id)<<strRegionShift + uint64(strAnchor+p.off))
}

// strPointer is the strPtr to the first byte of s (r nil for ""; ok false
// when s overlaps ranges of two arenas).
func (m *Machine) strPointer(s string) (strPtr, bool) {
	rs := &m.strs
	p, n := hostAddr(s), uintptr(len(s))
	if n == 0 {
		return strPtr{}, true
	}
	rs.mu.Lock()
	defer rs.mu.Unlock()
	// The ranges overlapping [p, p+n) are sorted[j:i].
	i := sort.Search(len(rs.sorted), func(i int) bool { return rs.sorted[i].lo() >= p+n })
	j := i
	for j > 0 && rs.sorted[j-1].hi() > p {
		j--
	}
	if i == j {
		ar := rs.arena(p)
		rs.sorted = append(rs.sorted, nil)
		copy(rs.sorted[i+1:], rs.sorted[i:])
		rs.sorted[i] = &strRange{s: s, ar: ar}
		return strPtr{r: ar, off: int64(p - ar.host)}, true
	}
	ar := rs.sorted[j].ar
	for _, r := range rs.sorted[j+1 : i] {
		if r.ar != ar {
			return strPtr{}, false
		}
	}
	// join s and the ranges it overlaps: one allocation of the host
	first, lo := rs.sorted[j], rs.sorted[j].lo()
	hi := max(rs.sorted[i-1].hi(), p+n)
	var joined string
	if p < lo {
		joined = unsafe.String(unsafe.StringData(s), hi-p) // s and the ranges share one backing array
	} else {
		joined = unsafe.String(unsafe.StringData(first.s), hi-lo)
	}
	rs.sorted[j] = &strRange{s: joined, ar: ar}
	rs.sorted = append(rs.sorted[:j+1], rs.sorted[i:]...)
	return strPtr{r: ar, off: int64(p) - int64(ar.host)}, true
}

// arena is the arena of the window holding host address p, numbered on
// first sight.
func (rs *strRegions) arena(p uintptr) *strArena {
	w := p &^ (1<<strArenaShift - 1)
	if ar := rs.byHost[w]; ar != nil {
		return ar
	}
	if rs.byHost == nil {
		rs.byHost = map[uintptr]*strArena{}
	}
	ar := &strArena{id: len(rs.byID) + 1, host: w}
	rs.byID = append(rs.byID, ar)
	rs.byHost[w] = ar
	return ar
}

// strPtrAt decodes a number made by strAddr.
func (m *Machine) strPtrAt(a uintptr) (strPtr, bool) {
	if uint64(a) < strAddrBase {
		return strPtr{}, false
	}
	id := int((uint64(a) - strAddrBase) >> strRegionShift)
	rs := &m.strs
	rs.mu.Lock()
	defer rs.mu.Unlock()
	if id < 1 || id > len(rs.byID) {
		return strPtr{}, false
	}
	r := rs.byID[id-1]
	return strPtr{r: r, off: int64(uint64(a)-strAddrBase-uint64(id)<<strRegionShift) - strAnchor}, true
}

// strBytes returns the n bytes at p; ok is false when they are not all
// bytes of one range the program has seen.
func (m *Machine) strBytes(p strPtr, n int64) (string, bool) {
	rest, ok := m.strRest(p)
	if n < 0 || !ok || n > int64(len(rest)) {
		return "", false
	}
	return rest[:n], true
}

// strRest is the bytes from p to the end of its string's backing array.
func (m *Machine) strRest(p strPtr) (string, bool) {
	rs := &m.strs
	rs.mu.Lock()
	defer rs.mu.Unlock()
	h := int64(p.r.host) + p.off
	if h <= 0 {
		return "", false
	}
	at := uintptr(h)
	i := sort.Search(len(rs.sorted), func(i int) bool { return rs.sorted[i].lo() > at })
	if i == 0 {
		return "", false
	}
	r := rs.sorted[i-1]
	k := int64(at - r.lo())
	if k > int64(len(r.s)) {
		return "", false
	}
	return r.s[k:], true
}

// add is p moved by n bytes (unsafe.Add).
func (p strPtr) add(n int64) strPtr { return strPtr{r: p.r, off: p.off + n} }

// loadStr reads a value of type rt through a pointer into a string's bytes.
func (t *thread) loadStr(fr *frame, p strPtr, rt *RType, dst int) ctl {
	size := gcSizes.Sizeof(rt.T)
	b, ok := t.m.strBytes(p, size)
	if !ok {
		return t.unsupported(fr, "a read past the bytes of a string (memory reinterpreted through unsafe.Pointer)")
	}
	if at, ok := rt.T.Underlying().(*types.Array); ok && basicKindOf(at.Elem()) == types.Byte {
		cells := make([]Value, len(b))
		for i := range cells {
			cells[i] = b[i]
		}
		fr.regs[dst] = cells
		return ctlNext
	}
	k := basicKindOf(rt.T)
	if !isSigned(k) && !isUnsigned(k) {
		return t.unsupported(fr, fmt.Sprintf("a string's bytes read as %s (memory reinterpreted through unsafe.Pointer)", rt.T))
	}
	var u uint64
	for i := len(b) - 1; i >= 0; i-- {
		u = u<<8 | uint64(b[i])
	}
	fr.regs[dst] = intOfKind(k, u)
	return ctlNext
}

// loadOther loads through a pointer that is not a cell's address: the
// bytes of a string, or a word of a string or slice header.
func (t *thread) loadOther(fr *frame, p Value, rt *RType, dst int) ctl {
	switch x := p.(type) {
	case strPtr:
		return t.loadStr(fr, x, rt, dst)
	case hdrWord:
		return t.loadHdrWord(fr, x, rt, dst)
	case ifaceData:
		return t.loadIfaceData(fr, x, rt, dst)
	case wildPtr:
		return t.unsupported(fr, fmt.Sprintf("a load through address 0x%x, which names no variable (memory reinterpreted through unsafe.Pointer)", x.a))
	case cellByte: // a byte inside a number's cell (unsafeview.go)
		return t.loadBytes(fr, x.p, int64(x.k), rt, dst)
	}
	return t.unsupported(fr, fmt.Sprintf("a load through %T", p))
}

// storeOther stores through a pointer that is not a cell's address.
func (t *thread) storeOther(fr *frame, p Value) ctl {
	switch p.(type) {
	case strPtr:
		return t.unsupported(fr, "a write to a string's bytes (read-only memory reached through unsafe.Pointer)")
	case hdrWord:
		return t.unsupported(fr, "a write to a word of a string, slice or interface header through unsafe.Pointer")
	case ifaceData:
		return t.unsupported(fr, "a write to the value boxed in an interface through unsafe.Pointer")
	case wildPtr:
		return t.unsupported(fr, "a store through an address that names no variable (memory reinterpreted through unsafe.Pointer)")
	}
	return t.unsupported(fr, fmt.Sprintf("a store through %T", p))
}

// hdrWord is a pointer to word k (1: length, 2: capacity) of the string
// or slice held by cell p: the VM keeps a string or slice in one cell,
// Go in two or three words, so &(*reflect.StringHeader)(unsafe.Pointer(&s)).Len
// is not a cell's address.
type hdrWord struct {
	p Pointer
	k int
}

func (w hdrWord) hashInto(h *hasher) {
	h.obj(w.p.Obj)
	h.int(int64(w.p.Off))
	h.int(int64(w.k))
}

// headerShaped reports whether st is laid out as a string header (a
// uintptr or unsafe.Pointer and an int) or a slice header (and another
// int): reflect.StringHeader, reflect.SliceHeader and their copies.
func headerShaped(st *types.Struct) bool {
	n := st.NumFields()
	if n != 2 && n != 3 {
		return false
	}
	if k := basicKindOf(st.Field(0).Type()); k != types.Uintptr && k != types.UnsafePointer {
		return false
	}
	for i := 1; i < n; i++ {
		if basicKindOf(st.Field(i).Type()) != types.Int {
			return false
		}
	}
	return true
}

// headerFieldAddr is &h.f for field f > 0 of a header-shaped struct at
// p: the length or capacity word when the cell at p holds a string or a
// slice (memory reinterpreted through unsafe.Pointer), else the cell's
// address as for any struct.
func (t *thread) headerFieldAddr(p Pointer, field int, off int32) Value {
	o := t.s.heap.get(p.Obj)
	if int(p.Off) < o.numCells() {
		switch o.cell(int(p.Off)).(type) {
		case string, Slice, Iface:
			return hdrWord{p: p, k: field}
		}
	}
	return Pointer{Obj: p.Obj, Off: p.Off + off}
}

func (t *thread) loadHdrWord(fr *frame, w hdrWord, rt *RType, dst int) ctl {
	if x, ok := t.s.heap.get(w.p.Obj).cell(int(w.p.Off)).(Iface); ok { // an interface's data word (unsafeiface.go)
		if basicKindOf(rt.T) != types.UnsafePointer || !ifaceCell(t.s.heap.get(w.p.Obj), w.p) {
			return t.unsupported(fr, "the data word of an interface read as "+rt.String()+" (memory reinterpreted through unsafe.Pointer)")
		}
		if k := t.load(fr, w.p, t.s.heap.get(w.p.Obj).T, dst); k != ctlNext {
			return k
		}
		fr.regs[dst] = dataWord(x)
		return ctlNext
	}
	asUintptr := basicKindOf(rt.T) == types.Uintptr // an element of a header array (unsafehdrarray.go)
	if basicKindOf(rt.T) != types.Int && !asUintptr {
		return t.unsupported(fr, fmt.Sprintf("a word of a string or slice header read as %s", rt.T))
	}
	if k := t.load(fr, w.p, t.m.types.get(types.Typ[types.Int]), dst); k != ctlNext {
		return k // a scheduling point or a race check before the read
	}
	o := t.s.heap.get(w.p.Obj)
	word := func(n int) ctl {
		if asUintptr {
			fr.regs[dst] = uintptr(n)
		} else {
			fr.regs[dst] = n
		}
		return ctlNext
	}
	switch x := o.cell(int(w.p.Off)).(type) {
	case string:
		if w.k == 1 {
			return word(len(x))
		}
	case Slice:
		if w.k == 1 {
			return word(x.Len)
		}
		return word(x.Cap)
	}
	return t.unsupported(fr, "a word past a string header through unsafe.Pointer")
}

// strApartMsg is why a string has no address: it overlaps ranges of two
// arenas.
const strApartMsg = "the address of a string's bytes straddling two 64 MiB windows of memory seen apart (memory reinterpreted through unsafe.Pointer)"

// isStringHeader reports whether rt is a struct of a uintptr or
// unsafe.Pointer and an int, the layout of a string's words
// (reflect.StringHeader, gjson's stringHeader).
func isStringHeader(rt *RType) bool {
	st, ok := rt.T.Underlying().(*types.Struct)
	return ok && st.NumFields() == 2 && headerShaped(st)
}

// loadFromHeader reads a value of type rt from a cell holding a uintptr:
// an integer of the same size (the uintptr's bits), or the slice or
// string a header-shaped struct's words describe
// (*(*[]byte)(unsafe.Pointer(&reflect.SliceHeader{Data: d, Len: n, Cap: n}))).
func (t *thread) loadFromHeader(fr *frame, o *Object, p Pointer, rt *RType, dst int) ctl {
	data := o.cell(int(p.Off)).(uintptr)
	k := basicKindOf(rt.T)
	if (isSigned(k) || isUnsigned(k)) && gcSizes.Sizeof(rt.T) == 8 {
		fr.regs[dst] = intOfKind(k, uint64(data))
		return ctlNext
	}
	n, c, msg := headerWords(o, p, rt, "a uintptr")
	if msg != "" {
		return t.unsupported(fr, msg)
	}
	isStr := isStringType(rt.T)
	if data == 0 {
		if n != 0 || c != 0 {
			return t.unsupported(fr, "a slice or string header with a nil Data and a length")
		}
		if isStr {
			fr.regs[dst] = ""
		} else {
			fr.regs[dst] = Slice{}
		}
		return ctlNext
	}
	if sp, ok := t.m.strPtrAt(data); ok {
		return t.sliceOfStrBytes(fr, sp, rt, n, c, dst)
	}
	q, ok := t.s.pointerAt(data)
	if !ok {
		return t.unsupported(fr, fmt.Sprintf("a slice or string header whose Data 0x%x is not the start of a cell of a live object", data))
	}
	obj := t.s.heap.get(q.Obj)
	if isStr {
		if int(q.Off)+n > obj.numCells() {
			return t.unsupported(fr, "a string header past the end of its object")
		}
		b := make([]byte, n)
		for i := range b {
			u, ok := obj.cell(int(int(q.Off) + i)).(uint8)
			if !ok {
				return t.unsupported(fr, "a string header over memory that does not hold bytes")
			}
			b[i] = u
		}
		fr.regs[dst] = string(b)
		return ctlNext
	}
	ert := t.m.types.get(rt.T.Underlying().(*types.Slice).Elem())
	if obj.T != ert && (obj.T.Elem != ert || !isArrayType(obj.T.T)) {
		return t.unsupported(fr, fmt.Sprintf("a slice header over memory of type %s read as %s", obj.T, rt.T))
	}
	if int(q.Off)+c*ert.Size > obj.numCells() {
		return t.unsupported(fr, "a slice header past the end of its object")
	}
	fr.regs[dst] = Slice{Obj: q.Obj, Off: q.Off, Len: n, Cap: c}
	return ctlNext
}

// headerWords are the length and capacity words of the header-shaped
// struct at p read as a string or slice of type rt, or why it is not one
// (what names the data word's value).
func headerWords(o *Object, p Pointer, rt *RType, what string) (n, c int, msg string) {
	words, ok := headerLayout(o.T.T) // a header-shaped struct or array (unsafehdrarray.go)
	isStr := isStringType(rt.T)
	_, isSlice := rt.T.Underlying().(*types.Slice)
	if !ok || p.Off != 0 || !isStr && !isSlice || isSlice && words != 3 {
		return 0, 0, fmt.Sprintf("%s read as %s (memory reinterpreted through unsafe.Pointer)", what, rt.T)
	}
	n = toInt(o.cell(1))
	if isSlice {
		c = toInt(o.cell(2))
	}
	if n < 0 || isSlice && c < n {
		return 0, 0, "a slice or string header with a negative length or a capacity below its length"
	}
	return n, c, ""
}

// sliceOfStrBytes is the string or []byte of type rt a header with data
// sp, length n and capacity c describes: the bytes themselves for a string
// (Go's shares them too), a copy for a []byte (writing through a []byte
// over a string's bytes is undefined in Go).
func (t *thread) sliceOfStrBytes(fr *frame, sp strPtr, rt *RType, n, c, dst int) ctl {
	if sl, ok := rt.T.Underlying().(*types.Slice); ok && basicKindOf(sl.Elem()) != types.Byte {
		return t.unsupported(fr, fmt.Sprintf("a string's bytes read as %s", rt.T))
	}
	b, ok := t.m.strBytes(sp, int64(max(n, c)))
	if !ok && t.capUnseen && c > n { // only string(b) reads it (unsafestrdata.go)
		b, ok = t.m.strBytes(sp, int64(n))
	}
	if !ok {
		return t.unsupported(fr, "a read past the bytes of a string (memory reinterpreted through unsafe.Pointer)")
	}
	if isStringType(rt.T) {
		fr.regs[dst] = b[:n]
		return ctlNext
	}
	bs := t.newBytes([]byte(b))
	bs.Len = n
	fr.regs[dst] = bs
	return ctlNext
}

func isArrayType(t types.Type) bool {
	_, ok := t.Underlying().(*types.Array)
	return ok
}

// unsafeStringOfStr is unsafe.String(p, n) for p into a string's bytes:
// the bytes themselves (Go's result shares them too).
func (t *thread) unsafeStringOfStr(fr *frame, p strPtr, n, dst int) ctl {
	if msg := unsafeLenCheck("String", n, 1, false); msg != "" {
		return t.runtimePanic(fr, msg)
	}
	b, ok := t.m.strBytes(p, int64(n))
	if !ok {
		return t.unsupported(fr, "unsafe.String past the bytes of a string")
	}
	if dst >= 0 {
		fr.regs[dst] = b
	}
	return ctlNext
}

// unsafeSliceOfStr is unsafe.Slice(p, n) for p into a string's bytes: a
// copy of the bytes (writing through the result is undefined in Go).
func (t *thread) unsafeSliceOfStr(fr *frame, p strPtr, elem *RType, n, dst int) ctl {
	if basicKindOf(elem.T) != types.Byte {
		return t.unsupported(fr, fmt.Sprintf("unsafe.Slice of a string's bytes as %s", elem.T))
	}
	if msg := unsafeLenCheck("Slice", n, 1, false); msg != "" {
		return t.runtimePanic(fr, msg)
	}
	b, ok := t.m.strBytes(p, int64(n))
	if !ok {
		return t.unsupported(fr, "unsafe.Slice past the bytes of a string")
	}
	if dst >= 0 {
		fr.regs[dst] = t.newBytes([]byte(b))
	}
	return ctlNext
}

// wildPtr is an unsafe.Pointer whose number names no variable and no
// string's bytes (unsafe.Pointer(^uintptr(0)), an address inside a cell,
// a constant): it can be converted back to a number, compared and moved
// with unsafe.Add, and its length checks made; reading or writing through
// it stops the run as unsupported.
type wildPtr struct{ a uintptr }

func (w wildPtr) hashInto(h *hasher) { h.u64(uint64(w.a)) }

// pointerOfAddr is the pointer a number names: a cell, a string's byte,
// or a wildPtr.
func (t *thread) pointerOfAddr(a uintptr) Value {
	if p, ok := t.s.pointerAt(a); ok {
		return p
	}
	if cb, ok := t.s.cellByteAt(a); ok { // unsafeview.go
		return cb
	}
	if sp, ok := t.m.strPtrAt(a); ok {
		return sp
	}
	return wildPtr{a: a}
}

// unsafeSliceOfWild is unsafe.Slice(p, n) or unsafe.String(p, n) for a
// pointer that names no variable: the runtime's checks (the memory must
// not wrap around the address space), then a result only when nothing
// reads it (dst < 0).
func (t *thread) unsafeSliceOfWild(fr *frame, fn string, p wildPtr, size int64, n, dst int) ctl {
	if msg := unsafeLenCheck(fn, n, size, false); msg != "" {
		return t.runtimePanic(fr, msg)
	}
	if uint64(n)*uint64(size) > -uint64(p.a) {
		return t.runtimePanic(fr, "unsafe."+fn+": len out of range")
	}
	if dst >= 0 {
		return t.unsupported(fr, fmt.Sprintf("unsafe.%s over address 0x%x, which names no variable", fn, p.a))
	}
	return ctlNext
}
