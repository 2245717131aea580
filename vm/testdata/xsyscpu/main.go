// Command xsyscpu imports golang.org/x/sys/cpu, whose init detects the
// processor's features in assembly (cpuid, xgetbv), and reads unaligned
// words through an array pointer over a string's bytes, as
// bytedance/gopkg's runtimex.ReadUnaligned64 does. Under gmc the
// processor has no optional feature (the VM runs the pure-Go code paths).
package main

import (
	"fmt"
	"unsafe"

	"golang.org/x/sys/cpu"
)

func readUnaligned64(p unsafe.Pointer) uint64 {
	q := (*[8]byte)(p)
	return uint64(q[0]) | uint64(q[1])<<8 | uint64(q[2])<<16 | uint64(q[3])<<24 |
		uint64(q[4])<<32 | uint64(q[5])<<40 | uint64(q[6])<<48 | uint64(q[7])<<56
}

func main() {
	fmt.Println("features:", cpu.X86.HasAVX2, cpu.X86.HasAVX512, cpu.X86.HasAES)
	s := "0123456789abcdef"
	p := unsafe.Pointer(unsafe.StringData(s))
	fmt.Printf("%#x %#x\n", readUnaligned64(p), readUnaligned64(unsafe.Add(p, 3)))
}
