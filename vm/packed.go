package vm

import (
	"encoding/binary"
	"fmt"
	"go/types"
	"math"
	"math/bits"
	"sync"
	"sync/atomic"
)

// Packed objects. A slice's backing array or an array variable whose
// elements are fixed-size numbers or booleans holds raw bytes, not one
// interface cell per element: a byte costs a byte, not 16, and a uint64
// 8, not 16 plus a box. The bytes are kept in pages copied on write: a
// state that writes one element of a 512 MB array copies the page table
// and one page, not the array. Pages never written are nil (zeros), so a
// huge zero array costs its page table only. A page's hash is cached in
// it once it is frozen, so hashing an object after one write rehashes one
// page.
//
// The element at cell i is read and written through Object.cell and
// Object.setCell, which decode and encode the element's Go value (the VM's
// representation of numbers: uint8 for byte, int for int, ...). A value
// of another Go type stored into a packed object (a symbolic value, an
// address stored through unsafe) converts the object to cells (unpack);
// an object too large for cells stops the run as unsupported.

// packKind is the element representation of a packed object (pkNone: the
// object has cells).
type packKind uint8

const (
	pkNone packKind = iota
	pkBool
	pkInt
	pkInt8
	pkInt16
	pkInt32
	pkInt64
	pkUint
	pkUint8
	pkUint16
	pkUint32
	pkUint64
	pkFloat32
	pkFloat64
)

// packWidth is the bytes per element of each kind.
var packWidth = [...]uint8{pkBool: 1, pkInt: 8, pkInt8: 1, pkInt16: 2, pkInt32: 4, pkInt64: 8,
	pkUint: 8, pkUint8: 1, pkUint16: 2, pkUint32: 4, pkUint64: 8, pkFloat32: 4, pkFloat64: 8}

// packKinds maps the basic kinds that pack to their representation.
var packKinds = map[types.BasicKind]packKind{types.Bool: pkBool, types.Int: pkInt, types.Int8: pkInt8,
	types.Int16: pkInt16, types.Int32: pkInt32, types.Int64: pkInt64, types.Uint: pkUint,
	types.Uint8: pkUint8, types.Uint16: pkUint16, types.Uint32: pkUint32, types.Uint64: pkUint64,
	types.Float32: pkFloat32, types.Float64: pkFloat64}

// packMin is the number of cells from which an object of a packable type
// is packed. Tests lower it to pack every such object (packAll).
var packMin = 64

// packPageBytes is the size of a full page.
const packPageBytes = 4096

// maxPackedBytes bounds one packed object.
const maxPackedBytes = 1 << 30

// packKindOf is the representation of the elements of objects of type rt
// (an element type, or an array of them): pkNone unless they are numbers
// of fixed size or booleans.
func packKindOf(rt *RType) packKind {
	t := rt.T
	if t == nil {
		return pkNone
	}
	for {
		at, ok := t.Underlying().(*types.Array)
		if !ok {
			break
		}
		t = at.Elem()
	}
	b, ok := t.Underlying().(*types.Basic)
	if !ok {
		return pkNone
	}
	return packKinds[b.Kind()]
}

// packPage is a page of a packed object's bytes. It is written only by
// the state whose epoch it carries; hash caches its hash once frozen (0:
// not computed; accessed atomically).
type packPage struct {
	epoch uint64
	hash  uint64
	b     []byte
}

// packed is the bytes of a packed object: n elements of kind k, shift is
// log2 of the elements per full page.
type packed struct {
	k     packKind
	w     uint8
	shift uint8
	n     int
	pages []*packPage  // nil: zeros
	one   [1]*packPage // pages of an object of one page (one allocation)
	// acct counts the pages made, in cells (heap.allocCells of the heap
	// whose state may write the object; nil: not counted)
	acct *int64
}

// newPacked makes a zero packed store of n elements of kind k.
func newPacked(k packKind, n int) *packed {
	w := int(packWidth[k])
	if n*w > maxPackedBytes {
		panic(vmLimit(fmt.Sprintf("an allocation of %d bytes (more than the VM's %d for one object)", n*w, maxPackedBytes)))
	}
	per := packPageBytes / w
	p := &packed{k: k, w: uint8(w), shift: uint8(bits.TrailingZeros(uint(per))), n: n}
	if np := (n + per - 1) / per; np > 1 {
		p.pages = make([]*packPage, np)
	} else {
		p.pages = p.one[:np]
	}
	return p
}

// clone is a copy sharing the pages (copied when written).
func (p *packed) clone() *packed {
	c := new(packed)
	*c = *p
	if len(p.pages) > 1 {
		c.pages = append([]*packPage(nil), p.pages...)
	} else {
		c.pages = c.one[:len(p.pages)]
	}
	return c
}

// fullPage is a page of packPageBytes and its header, in one allocation.
type fullPage struct {
	packPage
	b [packPageBytes]byte
}

// pageLen is the byte length of page j.
func (p *packed) pageLen(j int) int {
	per := 1 << p.shift
	if rest := p.n - j*per; rest < per {
		return rest * int(p.w)
	}
	return packPageBytes
}

// get decodes element i.
func (p *packed) get(i int) Value {
	pg := p.pages[i>>p.shift]
	if pg == nil {
		return packZero[p.k]
	}
	return decodePacked(p.k, pg.b[(i&(1<<p.shift-1))*int(p.w):])
}

// packZero is the zero value of each kind.
var packZero = [...]Value{pkBool: false, pkInt: int(0), pkInt8: int8(0), pkInt16: int16(0), pkInt32: int32(0),
	pkInt64: int64(0), pkUint: uint(0), pkUint8: uint8(0), pkUint16: uint16(0), pkUint32: uint32(0),
	pkUint64: uint64(0), pkFloat32: float32(0), pkFloat64: float64(0)}

func decodePacked(k packKind, b []byte) Value {
	switch k {
	case pkUint8:
		return b[0]
	case pkUint64:
		return binary.LittleEndian.Uint64(b)
	case pkBool:
		return b[0] != 0
	case pkInt:
		return int(binary.LittleEndian.Uint64(b))
	case pkInt8:
		return int8(b[0])
	case pkInt16:
		return int16(binary.LittleEndian.Uint16(b))
	case pkInt32:
		return int32(binary.LittleEndian.Uint32(b))
	case pkInt64:
		return int64(binary.LittleEndian.Uint64(b))
	case pkUint:
		return uint(binary.LittleEndian.Uint64(b))
	case pkUint16:
		return binary.LittleEndian.Uint16(b)
	case pkUint32:
		return binary.LittleEndian.Uint32(b)
	case pkFloat32:
		return math.Float32frombits(binary.LittleEndian.Uint32(b))
	case pkFloat64:
		return math.Float64frombits(binary.LittleEndian.Uint64(b))
	}
	panic("gmc: packed element of no kind")
}

// encodePacked is the bits of v as an element of kind k; ok is false when
// v is not of the kind's Go type.
func encodePacked(k packKind, v Value) (uint64, bool) {
	switch x := v.(type) {
	case uint8:
		return uint64(x), k == pkUint8
	case uint64:
		return x, k == pkUint64
	case bool:
		if x {
			return 1, k == pkBool
		}
		return 0, k == pkBool
	case int:
		return uint64(x), k == pkInt
	case int8:
		return uint64(uint8(x)), k == pkInt8
	case int16:
		return uint64(uint16(x)), k == pkInt16
	case int32:
		return uint64(uint32(x)), k == pkInt32
	case int64:
		return uint64(x), k == pkInt64
	case uint:
		return uint64(x), k == pkUint
	case uint16:
		return uint64(x), k == pkUint16
	case uint32:
		return uint64(x), k == pkUint32
	case float32:
		return uint64(math.Float32bits(x)), k == pkFloat32
	case float64:
		return math.Float64bits(x), k == pkFloat64
	}
	return 0, false
}

// page returns page j for writing by a state of the given epoch, copying
// or making it first.
func (p *packed) page(j int, epoch uint64) *packPage {
	pg := p.pages[j]
	if pg != nil && pg.epoch == epoch {
		return pg
	}
	var np *packPage
	if n := p.pageLen(j); n == packPageBytes {
		f := &fullPage{packPage: packPage{epoch: epoch}}
		f.packPage.b = f.b[:]
		np = &f.packPage
	} else {
		np = &packPage{epoch: epoch, b: make([]byte, n)}
	}
	if p.acct != nil {
		*p.acct += int64(len(np.b)+15) / 16
	}
	if pg != nil {
		copy(np.b, pg.b)
	}
	p.pages[j] = np
	return np
}

// set encodes v as element i (in a state of the given epoch); false when
// v is not of the kind's Go type (nothing written).
func (p *packed) set(i int, v Value, epoch uint64) bool {
	x, ok := encodePacked(p.k, v)
	if !ok {
		return false
	}
	j := i >> p.shift
	if x == 0 && p.pages[j] == nil {
		return true // zero into zeros
	}
	b := p.page(j, epoch).b[(i&(1<<p.shift-1))*int(p.w):]
	switch p.w {
	case 1:
		b[0] = byte(x)
	case 2:
		binary.LittleEndian.PutUint16(b, uint16(x))
	case 4:
		binary.LittleEndian.PutUint32(b, uint32(x))
	default:
		binary.LittleEndian.PutUint64(b, x)
	}
	return true
}

// zero clears elements [i, j).
func (p *packed) zero(i, j int, epoch uint64) {
	p.spans(i, (j-i)*int(p.w), func(pj, off, m int) {
		switch {
		case p.pages[pj] == nil:
		case off == 0 && m == p.pageLen(pj):
			p.pages[pj] = nil // the whole page
		default:
			clear(p.page(pj, epoch).b[off : off+m])
		}
	})
}

// copyFrom copies n elements of q (of the same kind) from element si to
// element di of p, as memmove: they may overlap when q is p.
func (p *packed) copyFrom(di int, q *packed, si, n int, epoch uint64) {
	if n <= 0 {
		return
	}
	w := int(p.w)
	src := make([]byte, n*w)
	q.readBytes(si, src)
	p.writeBytes(di, src, epoch)
}

// spans calls f on each piece, within one page, of the n bytes of the
// elements from i: page pj, the byte offset in it, the piece's length.
func (p *packed) spans(i, n int, f func(pj, off, m int)) {
	w := int(p.w)
	per := 1 << p.shift
	for n > 0 {
		pj := i >> p.shift
		off := (i - pj*per) * w
		m := min(n, p.pageLen(pj)-off)
		f(pj, off, m)
		n -= m
		i += m / w
	}
}

// readBytes copies the bytes of elements from i into b.
func (p *packed) readBytes(i int, b []byte) {
	p.spans(i, len(b), func(pj, off, m int) {
		if pg := p.pages[pj]; pg != nil {
			copy(b[:m], pg.b[off:])
		} else {
			clear(b[:m])
		}
		b = b[m:]
	})
}

// writeBytes copies b over the bytes of the elements from i.
func (p *packed) writeBytes(i int, b []byte, epoch uint64) {
	p.spans(i, len(b), func(pj, off, m int) {
		if p.pages[pj] != nil || !allZero(b[:m]) {
			copy(p.page(pj, epoch).b[off:], b[:m])
		}
		b = b[m:]
	})
}

func allZero(b []byte) bool {
	for _, c := range b {
		if c != 0 {
			return false
		}
	}
	return true
}

// values decodes elements [i, j).
func (p *packed) values(i, j int) []Value {
	vs := make([]Value, j-i)
	for k := range vs {
		vs[k] = p.get(i + k)
	}
	return vs
}

// hash is the hash of the elements: equal for equal contents (a page of
// zeros hashes as a missing one). Pages cache their hash unless they are
// of epoch live, the epoch of the state that may still write them (0:
// none may).
func (p *packed) hash(live uint64) uint64 {
	h := hashWords(uint64(p.k)<<56^uint64(p.n), nil)
	for j, pg := range p.pages {
		var x uint64
		switch {
		case pg == nil && p.pageLen(j) == packPageBytes:
			x = zeroPageHash()
		case pg == nil:
			x = pageHash(make([]byte, p.pageLen(j)))
		default:
			if x = atomic.LoadUint64(&pg.hash); x == 0 {
				x = pageHash(pg.b)
				if pg.epoch != live || live == 0 {
					atomic.StoreUint64(&pg.hash, x)
				}
			}
		}
		h = mixWord(h, x)
	}
	return h
}

var zeroPage struct {
	once sync.Once
	h    uint64
}

func zeroPageHash() uint64 {
	zeroPage.once.Do(func() { zeroPage.h = pageHash(make([]byte, packPageBytes)) })
	return zeroPage.h
}

// pageHash is the hash of a page's bytes (never 0: 0 is not computed).
func pageHash(b []byte) uint64 { return hashWords(0, b) | 1 }

// hashWords hashes b eight bytes at a time from seed.
func hashWords(seed uint64, b []byte) uint64 {
	h := seed ^ fnvOffset
	for len(b) >= 8 {
		h = mixWord(h, binary.LittleEndian.Uint64(b))
		b = b[8:]
	}
	var last uint64
	for i, c := range b {
		last |= uint64(c) << (8 * i)
	}
	return mixWord(mixWord(h, last), uint64(len(b)))
}

// mixWord is the hasher's multiply-rotate round (hasher.u64).
func mixWord(h, x uint64) uint64 {
	h ^= x * 0xc2b2ae3d27d4eb4f
	return bits.RotateLeft64(h, 31) * 0x9e3779b185ebca87
}
