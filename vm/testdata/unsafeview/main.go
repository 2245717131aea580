// Typed views of memory as dgraph-io/ristretto takes them: a []byte seen
// as []uint64 through a SliceHeader (z.BytesToUint64Slice), a byte inside
// a uint64 cell reached through uintptr arithmetic (z's bbloom bit set),
// numbers read and written through pointers of another width. Each case
// is selected by os.Args[1]; vm/unsafeview_test.go compares the output
// under gmc with the output `go run` prints.
package main

import (
	"fmt"
	"os"
	"reflect"
	"unsafe"
)

// bytesToUint64Slice is ristretto's z.BytesToUint64Slice.
func bytesToUint64Slice(b []byte) []uint64 {
	if len(b) == 0 {
		return nil
	}
	var u64s []uint64
	hdr := (*reflect.SliceHeader)(unsafe.Pointer(&u64s))
	hdr.Len = len(b) / 8
	hdr.Cap = hdr.Len
	hdr.Data = uintptr(unsafe.Pointer(&b[0]))
	return u64s
}

// bytesToU32 sets the Data word first, then the lengths.
func bytesToU32(b []byte) []uint32 {
	var u []uint32
	hdr := (*reflect.SliceHeader)(unsafe.Pointer(&u))
	hdr.Data = uintptr(unsafe.Pointer(&b[0]))
	hdr.Len = len(b) / 4
	hdr.Cap = len(b) / 4
	return u
}

// bloom is ristretto's z.Bloom bit set.
type bloom struct{ bitset []uint64 }

var mask = []uint8{1, 2, 4, 8, 16, 32, 64, 128}

func (bl *bloom) set(idx uint64) {
	ptr := unsafe.Pointer(uintptr(unsafe.Pointer(&bl.bitset[idx>>6])) + uintptr((idx%64)>>3))
	*(*uint8)(ptr) |= mask[idx%8]
}

func (bl *bloom) isSet(idx uint64) bool {
	ptr := unsafe.Pointer(uintptr(unsafe.Pointer(&bl.bitset[idx>>6])) + uintptr((idx%64)>>3))
	r := ((*(*uint8)(ptr)) >> (idx % 8)) & 1
	return r == 1
}

func (bl *bloom) bytes() []byte {
	out := make([]byte, len(bl.bitset)<<3)
	for i := range out {
		out[i] = *(*byte)(unsafe.Pointer(uintptr(unsafe.Pointer(&bl.bitset[0])) + uintptr(i)))
	}
	return out
}

func fromBytes(bs []byte) *bloom {
	bl := &bloom{bitset: make([]uint64, len(bs)/8)}
	for i, b := range bs {
		*(*uint8)(unsafe.Pointer(uintptr(unsafe.Pointer(&bl.bitset[0])) + uintptr(i))) = b
	}
	return bl
}

// copyBytes is copy (apart: gc 1.26 fails to compile the copy inline here).
//
//go:noinline
func copyBytes(d, s []byte) int { return copy(d, s) }

// moveRight is ristretto's node.moveRight: an overlapping copy.
//
//go:noinline
func moveRight(n []uint64) { copy(n[1:], n[:3]) }

var cases = map[string]func(){
	"bytes-as-words": func() {
		b := make([]byte, 32)
		b[0], b[1], b[8] = 1, 2, 0xff
		n := bytesToUint64Slice(b)
		fmt.Println(len(n), cap(n), n[0], n[1], n[2])
		n[2] = 0x0102030405060708
		n[3] = ^uint64(0) - 1
		fmt.Println(b[16:])
		b[17] = 0x70
		fmt.Println(n[2] == 0x0102030405067008, n[3]>>56)
		moveRight(n) // an overlapping copy inside the view
		fmt.Println(n[1], n[2], n[3] == 0x0102030405067008, b[8:10])
		sub := n[2:4]
		sub[0] = 7
		fmt.Println(b[16], len(sub), cap(sub))
		fmt.Println(uintptr(unsafe.Pointer(&n[3]))-uintptr(unsafe.Pointer(&b[0])) == 24)
		big := make([]byte, 40)
		copyBytes(big, b) // bytes copied carry the words
		fmt.Println(bytesToUint64Slice(big)[3] == n[3])
	},
	"words-u32": func() {
		b := []byte{1, 0, 0, 0, 2, 0, 0, 0, 0xff, 0xff, 0xff, 0xff}
		u := bytesToU32(b)
		u[1] += 40
		fmt.Println(u[0], u[1], u[2], len(u), b[4])
	},
	"bloom": func() {
		bl := &bloom{bitset: make([]uint64, 2)}
		for _, i := range []uint64{0, 3, 9, 63, 64, 100, 127} {
			bl.set(i)
		}
		fmt.Println(bl.isSet(3), bl.isSet(4), bl.isSet(63), bl.isSet(100), bl.isSet(101))
		fmt.Printf("%x %x\n", bl.bitset[0], bl.bitset[1])
		bs := bl.bytes()
		fmt.Println(bs)
		cp := fromBytes(bs)
		fmt.Println(cp.bitset[0] == bl.bitset[0], cp.bitset[1] == bl.bitset[1], cp.isSet(127))
	},
	"cast-width": func() {
		b := []byte{0x10, 0x20, 0x30, 0x40, 0x50, 0x60, 0x70, 0x80, 9}
		fmt.Printf("%x\n", *(*uint64)(unsafe.Pointer(&b[0])))
		*(*uint32)(unsafe.Pointer(&b[4])) = 0xdeadbeef
		fmt.Println(b)
		var w [2]uint64
		*(*uint8)(unsafe.Pointer(&w[1])) = 5
		*(*uint16)(unsafe.Add(unsafe.Pointer(&w[0]), 6)) = 0xabcd
		fmt.Printf("%x %x\n", w[0], w[1])
		q := [2]int64{0x0000000700000003, -1}
		fmt.Println(*(*int32)(unsafe.Add(unsafe.Pointer(&q), 4)), *(*int32)(unsafe.Add(unsafe.Pointer(&q), 8)))
		k := -5
		*(*uint64)(unsafe.Pointer(&k)) = 1<<63 | 9 // an int written as uint64: still an int
		fmt.Println(k, k < 0)
	},
	"unsafe-slice-view": func() { // unsafe.Slice of another width, printed by fmt (reflect)
		b := make([]byte, 16)
		b[0], b[8] = 1, 2
		w := unsafe.Slice((*uint64)(unsafe.Pointer(&b[0])), 2)
		fmt.Println(w, w[1]>>8, len(w))
		reflect.ValueOf(w).Index(1).SetUint(0x0304)
		fmt.Printf("%v %d %x\n", b[8:10], w, w)
		x := uint64(0x0102030405060708)
		bs := unsafe.Slice((*byte)(unsafe.Pointer(&x)), 8)
		fmt.Println(bs, *(*[8]byte)(unsafe.Pointer(&x)))
		h := unsafe.Slice((*uint16)(unsafe.Pointer(&w[1])), 4)
		fmt.Println(h)
		*(*[4]byte)(unsafe.Pointer(&x)) = [4]byte{0xaa, 0xbb, 0xcc, 0xdd}
		fmt.Printf("%x %v\n", x, *(*[2]uint32)(unsafe.Pointer(&w[0])))
	},
	"view-of-struct": func() { // memory of mixed fields: not numbers of one width
		type rec struct {
			a uint32
			b string
		}
		r := rec{a: 1, b: "x"}
		p := unsafe.Pointer(uintptr(unsafe.Pointer(&r)) + 1)
		fmt.Println(*(*uint8)(p))
	},
}

func main() {
	cases[os.Args[1]]()
}
