// Unsafe reinterpretation of memory as real modules use it: function
// values called through another function type, the address of a string's
// bytes, unsafe.Add, an interface's words. Each case is selected by
// os.Args[1]; vm/unsafemem_test.go compares the output under gmc with the
// output `go run` prints.
package main

import (
	"fmt"
	"os"
	"reflect"
	"sort"
	"unsafe"
)

var hashQword = func(key uint64) uintptr { return uintptr(key*0x9E3779B97F4A7C15) >> 7 }

var hashByte = func(key uint8) uintptr { return uintptr(key) * 31 }

var hashString = func(key string) uintptr { return uintptr(len(key)) }

// hasher picks a hash function for K as cornelk/hashmap does: a function
// of another signature read through unsafe.Pointer.
func hasher[K comparable]() func(K) uintptr {
	var k K
	switch reflect.TypeOf(k).Kind() {
	case reflect.Int, reflect.Uint64, reflect.Int64:
		return *(*func(K) uintptr)(unsafe.Pointer(&hashQword))
	case reflect.Int8, reflect.Uint8:
		return *(*func(K) uintptr)(unsafe.Pointer(&hashByte))
	case reflect.String:
		return *(*func(K) uintptr)(unsafe.Pointer(&hashString))
	}
	return nil
}

var cases = map[string]func(){
	"func-cast": func() {
		hi := hasher[int]()
		h8 := hasher[int8]()
		hs := hasher[string]()
		fmt.Println(hi(-1), hi(42), h8(-3), hs("abc"))
		defer func(h func(int) uintptr) { fmt.Println("deferred", h(7)) }(hi)
		done := make(chan uintptr)
		go func() { done <- hi(9) }()
		fmt.Println(<-done)
	},
	"func-cast-float": func() { // a float64 read as an int64 parameter: not a reinterpretation
		f := func(x float64) float64 { return x * 2 }
		g := *(*func(int64) float64)(unsafe.Pointer(&f))
		fmt.Println(g(3))
	},
}

func main() {
	if len(os.Args) < 2 || cases[os.Args[1]] == nil {
		names := make([]string, 0, len(cases))
		for n := range cases {
			names = append(names, n)
		}
		sort.Strings(names)
		fmt.Println("usage: unsafemem CASE; cases:", names)
		return
	}
	cases[os.Args[1]]()
}
