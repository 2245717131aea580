// Command packed exercises arrays and slices of numbers large enough to
// be packed by the VM (vm/packed.go): its output must be go run's.
package main

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"math"
	"reflect"
	"slices"
	"strings"
	"unsafe"
)

type word uint64

func main() {
	// a big []byte: make, index, slice, copy, append, string conversions
	b := make([]byte, 10000)
	for i := range b {
		b[i] = byte(i * 7)
	}
	fmt.Println(len(b), cap(b), b[0], b[1], b[4095], b[4096], b[9999], crc32.ChecksumIEEE(b))
	s := string(b[4090:4100])
	fmt.Printf("%q\n", s)
	c := make([]byte, 5000)
	n := copy(c, b[3000:])
	fmt.Println(n, c[0], c[1095], c[1096], c[4999], bytes.Equal(c, b[3000:8000]))
	n = copy(b[1:], b) // overlapping, across pages
	fmt.Println(n, b[0], b[1], b[2], b[4096], b[4097], b[9999])
	n = copy(c, "hello, packed world")
	fmt.Println(n, string(c[:n]))
	b = append(b, 1, 2, 3)
	fmt.Println(len(b), b[10000], b[10002], cap(b) >= 10003)
	b = append(b[:100], c[:200]...)
	fmt.Println(len(b), b[100], b[104], b[299])
	clear(b[50:150])
	fmt.Println(b[49], b[50], b[149], b[150])

	// small into big and big into small (packed and unpacked cells)
	b = make([]byte, 8192)
	for i := range b {
		b[i] = byte(i / 3)
	}
	small := []byte{9, 8, 7}
	copy(b[4094:], small)
	fmt.Println(b[4093], b[4094], b[4095], b[4096], b[4097])
	copy(small, b[4095:])
	fmt.Println(small)
	mixed := append([]byte{1, 2}, b[4000:4200]...)
	fmt.Println(len(mixed), mixed[0], mixed[2], mixed[201])

	// words: uint64, named, int, floats, bool, signed
	w := make([]word, 2000)
	for i := range w {
		w[i] = word(i) << 40
	}
	w[1999] |= 1 << 63
	fmt.Println(w[0], w[1], w[1999], w[1000]>>40)
	f := make([]float64, 1000)
	f[3], f[999] = math.Pi, math.Inf(-1)
	f[500] = math.NaN()
	fmt.Println(f[3], f[999], f[0], math.IsNaN(f[500]))
	f32 := make([]float32, 300)
	f32[299] = 1.5
	fmt.Println(f32[299] * 2)
	bs := make([]bool, 500)
	bs[7], bs[499] = true, true
	fmt.Println(bs[6], bs[7], bs[499], slices.Index(bs, true))
	i8 := make([]int8, 300)
	i8[5] = -128
	i16 := make([]int16, 300)
	i16[6] = -3
	i32 := make([]int32, 300)
	i32[7] = math.MinInt32
	u16 := make([]uint16, 300)
	u16[8] = 65535
	is := make([]int, 300)
	is[9] = -1 << 62
	fmt.Println(i8[5], i16[6], i32[7], u16[8], is[9], i8[0]+1)

	// an array variable and an array value inside a slice
	var arr [1000]uint32
	arr[999] = 42
	p := &arr
	p[3] = 7
	cp := arr // a copy of the whole array
	cp[3] = 8
	fmt.Println(arr[3], cp[3], arr[999], len(arr))
	quads := make([][4]byte, 100)
	quads[50] = [4]byte{1, 2, 3, 4}
	q := quads[50]
	q[0] = 9
	fmt.Println(quads[50], q, quads[49])
	a8 := (*[8]byte)(b[4090:])
	a8[7] = 77
	fmt.Println(b[4097], [8]byte(b[4090:4098]))

	// unsafe views: a []byte's bytes as a uint64, and a []uint64 as bytes
	buf := make([]byte, 256)
	binary.LittleEndian.PutUint64(buf[128:], 0x0102030405060708)
	fmt.Println(*(*uint64)(unsafe.Pointer(&buf[128])) == 0x0102030405060708, buf[128], buf[135])
	var ws []uint64
	hdr := (*reflect.SliceHeader)(unsafe.Pointer(&ws))
	hdr.Data = uintptr(unsafe.Pointer(&buf[0]))
	hdr.Len, hdr.Cap = len(buf)/8, len(buf)/8
	fmt.Printf("%d %x\n", len(ws), ws[16])
	ws[17] = 0xAABBCCDDEEFF0011
	fmt.Println(buf[136], buf[143], ws[17]>>56)
	us := make([]uint64, 100)
	us[10] = 0xAABBCCDDEEFF0011
	fmt.Println(*(*byte)(unsafe.Pointer(uintptr(unsafe.Pointer(&us[10])) + 7)))
	*(*uint8)(unsafe.Pointer(uintptr(unsafe.Pointer(&us[10])) + 1)) = 0x33
	*(*uint16)(unsafe.Add(unsafe.Pointer(&us[11]), 6)) = 0xabcd
	fmt.Printf("%x %x\n", us[10], us[11])

	// strings and bytes packages over big buffers
	var bb bytes.Buffer
	for i := 0; i < 300; i++ {
		fmt.Fprintf(&bb, "%d,", i)
	}
	out := bb.String()
	fmt.Println(len(out), out[:20], strings.Count(out, ","))
	rs := []rune(strings.Repeat("héllo", 30))
	rs[1] = 'e'
	fmt.Println(len(rs), string(rs[:10]))
	sorted := make([]int, 200)
	for i := range sorted {
		sorted[i] = (i * 37) % 200
	}
	slices.Sort(sorted)
	fmt.Println(sorted[0], sorted[100], sorted[199], slices.Equal(sorted[:3], []int{0, 1, 2}))
}
