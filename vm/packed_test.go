package vm

import (
	"go/types"
	"testing"
)

// TestPackedCopyOnWrite: a clone shares its pages until one is written;
// the write copies that page only, and the original keeps its values.
func TestPackedCopyOnWrite(t *testing.T) {
	p := newPacked(pkUint64, 3*512+5) // 4 pages of 512 words, the last short
	if !p.set(600, uint64(7), 1) || !p.set(1540, uint64(9), 1) {
		t.Fatal("set of a uint64 refused")
	}
	q := p.clone()
	if !q.set(601, uint64(8), 2) {
		t.Fatal("set refused")
	}
	if got := p.get(601); got != uint64(0) {
		t.Errorf("original's element 601 = %v after the clone's write, want 0", got)
	}
	if q.get(600) != uint64(7) || q.get(601) != uint64(8) || q.get(1540) != uint64(9) {
		t.Errorf("clone reads %v %v %v, want 7 8 9", q.get(600), q.get(601), q.get(1540))
	}
	if p.pages[1] == q.pages[1] || p.pages[3] != q.pages[3] || q.pages[0] != nil {
		t.Error("the write did not copy exactly the page it wrote")
	}
	if n := len(p.pages[3].b); n != 5*8 {
		t.Errorf("last page holds %d bytes, want 40", n)
	}
	if p.set(3, int64(1), 1) || p.set(3, Pointer{}, 1) {
		t.Error("a value of another Go type was accepted")
	}
}

// TestPackedHashContent: the hash of a packed store depends on its
// contents only: a written page of zeros hashes as a page never written,
// and equal contents reached differently hash equally.
func TestPackedHashContent(t *testing.T) {
	for _, n := range []int{10, 4096, 3*4096 + 17} {
		a, b := newPacked(pkUint8, n), newPacked(pkUint8, n)
		h0 := a.hash(0)
		a.set(n-1, uint8(5), 1)
		if a.hash(0) == h0 {
			t.Errorf("n=%d: a written byte left the hash unchanged", n)
		}
		a.pages = append([]*packPage(nil), a.pages...)
		a.set(n-1, uint8(0), 2) // a materialized page of zeros
		if got := a.hash(0); got != h0 {
			t.Errorf("n=%d: zeroed page hashes %x, never-written %x", n, got, h0)
		}
		a.writeBytes(0, []byte("abc"), 3)
		b.set(0, uint8('a'), 4)
		b.set(1, uint8('b'), 4)
		b.set(2, uint8('c'), 4)
		if a.hash(0) != b.hash(0) {
			t.Errorf("n=%d: equal contents hash differently", n)
		}
		if newPacked(pkInt8, n).hash(0) == newPacked(pkUint8, n).hash(0) {
			t.Errorf("n=%d: int8 and uint8 zeros hash equally", n)
		}
	}
}

// TestPackedUnpack: storing a value a packed object cannot hold (a
// symbolic value, a pointer) turns it into cells holding the same values.
func TestPackedUnpack(t *testing.T) {
	rt := &RType{T: types.Typ[types.Uint8], Size: 1}
	o := packedObject(rt, 100)
	if o == nil {
		t.Fatal("100 bytes not packed")
	}
	o.epoch = 1
	o.setCell(3, uint8(4))
	o.setCell(5, Pointer{Obj: 9})
	if o.pk != nil || o.numCells() != 100 || o.cell(3) != uint8(4) || o.cell(5) != (Pointer{Obj: 9}) || o.cell(6) != uint8(0) {
		t.Errorf("after unpack: packed=%v cells=%d [3]=%v [5]=%v [6]=%v", o.pk != nil, o.numCells(), o.cell(3), o.cell(5), o.cell(6))
	}
	big := packedObject(rt, maxObjectCells+1)
	big.epoch = 1
	defer func() {
		if _, ok := recover().(vmLimit); !ok {
			t.Error("unpacking an object too large for cells did not stop at the VM's limit")
		}
	}()
	big.setCell(0, Pointer{Obj: 9})
}

// TestPackedBytes: bytes written and read across pages, and cleared: a
// page cleared whole is dropped (zeros again), a part of one is zeroed.
func TestPackedBytes(t *testing.T) {
	p := newPacked(pkUint16, 5000) // 2048 per page: 3 pages
	src := make([]byte, 2*4000)
	for i := range src {
		src[i] = byte(i%251 + 1)
	}
	p.writeBytes(1000, src, 1)
	got := make([]byte, len(src))
	p.readBytes(1000, got)
	if string(got) != string(src) {
		t.Fatal("bytes read back differ from those written across pages")
	}
	if v := p.get(1000); v != uint16(2<<8|1) {
		t.Errorf("element 1000 = %v, want %d", v, 2<<8|1)
	}
	p.zero(1500, 4500, 1)
	if p.pages[1] != nil || p.pages[0] == nil || p.pages[2] == nil {
		t.Error("clearing page 1 whole did not drop it, or dropped a partly cleared page")
	}
	if p.get(1499) == uint16(0) || p.get(1500) != uint16(0) || p.get(4499) != uint16(0) || p.get(3999) != uint16(0) || p.get(4500) == uint16(0) {
		t.Errorf("after zero(1500, 4500): [1499]=%v [1500]=%v [3999]=%v [4499]=%v", p.get(1499), p.get(1500), p.get(3999), p.get(4499))
	}
	q := newPacked(pkUint16, 5000)
	q.copyFrom(0, p, 0, 5000, 2)
	if q.hash(0) != p.hash(0) {
		t.Error("a copy hashes differently from its original")
	}
}

// TestPackedHashLive: the hash of an object a state may still write (a
// probe of a transition in progress) caches nothing of the pages it
// writes: a later write in the same epoch changes the hash.
func TestPackedHashLive(t *testing.T) {
	p := newPacked(pkUint8, 10000)
	p.set(5000, uint8(1), 7)
	h1 := p.hash(7)
	p.set(5001, uint8(2), 7)
	if p.hash(7) == h1 {
		t.Error("a write after a hash in the same epoch left the hash unchanged")
	}
	if p.pages[1].hash != 0 {
		t.Error("a page of the live epoch cached its hash")
	}
}
