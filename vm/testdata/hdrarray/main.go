// Command hdrarray reads a string's words as an array of uintptr and makes
// a []byte of them through another array, as smallnest/ringbuffer's
// WriteString does: (*[2]uintptr)(unsafe.Pointer(&s)), then
// *(*[]byte)(unsafe.Pointer(&[3]uintptr{data, len, len})). It also reads a
// slice's three words the same way.
package main

import (
	"fmt"
	"unsafe"
)

func bytesOf(s string) []byte {
	x := (*[2]uintptr)(unsafe.Pointer(&s))
	h := [3]uintptr{x[0], x[1], x[1]}
	return *(*[]byte)(unsafe.Pointer(&h))
}

func main() {
	s := "hello, ring"
	b := bytesOf(s)
	fmt.Println(len(b), cap(b), string(b))
	fmt.Println(string(bytesOf(s[7:])))
	x := (*[2]uintptr)(unsafe.Pointer(&s))
	fmt.Println(x[1], x[0] == uintptr(unsafe.Pointer(unsafe.StringData(s))))
	sl := make([]int, 3, 8)
	w := (*[3]uintptr)(unsafe.Pointer(&sl))
	fmt.Println(w[1], w[2])
}
