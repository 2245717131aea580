// Program structview reads and writes the fields of a struct through a
// pointer to a byte buffer converted from unsafe.Pointer, as
// coocood/freecache writes its entry headers into a ring buffer.
package main

import (
	"fmt"
	"unsafe"
)

type hdr struct {
	accessTime uint32
	expireAt   uint32
	keyLen     uint16
	hash16     uint16
	valLen     uint32
	valCap     uint32
	deleted    bool
	slotID     uint8
	reserved   uint16
}

const hdrSize = int(unsafe.Sizeof(hdr{}))

func main() {
	var buf [hdrSize]byte
	h := (*hdr)(unsafe.Pointer(&buf[0]))
	h.accessTime = 0x01020304
	h.expireAt = 7
	h.keyLen = 0x0a0b
	h.hash16 = 300
	h.valLen = 1 << 20
	h.valCap = 99
	h.deleted = true
	h.slotID = 5
	fmt.Println(hdrSize, buf)

	// through a large buffer and back, as bytes
	ring := make([]byte, 4096)
	copy(ring[100:], buf[:])
	var back [hdrSize]byte
	copy(back[:], ring[100:])
	b := (*hdr)(unsafe.Pointer(&back[0]))
	fmt.Println(b.accessTime, b.expireAt, b.keyLen, b.hash16, b.valLen, b.valCap, b.deleted, b.slotID, b.reserved)
	if b.deleted {
		fmt.Println("deleted")
	}
	b.deleted = false
	b.keyLen += 2
	fmt.Println(back[20], b.deleted, back[8], back[9], b.keyLen)

	// a view at an offset inside a buffer
	big := make([]byte, 64)
	h2 := (*hdr)(unsafe.Pointer(&big[8]))
	h2.valCap = 0xdeadbeef
	h2.hash16 = 0xffff
	fmt.Println(big[8+10:8+12], big[8+16:8+20], h2.valCap, h2.hash16)

	// whole structs, loaded and stored
	whole := *b
	fmt.Println(whole.accessTime, whole.keyLen, whole.deleted, whole.slotID)
	*h2 = hdr{accessTime: 9, deleted: true, slotID: 3}
	fmt.Println(big[8:12], big[8+20], big[8+21], h2.valCap)

	// a struct of words over words: cells line up
	words := make([]uint64, 4)
	p := (*struct{ lo, hi uint64 })(unsafe.Pointer(&words[1]))
	p.lo, p.hi = 11, 12
	fmt.Println(words, p.lo+p.hi)
}
