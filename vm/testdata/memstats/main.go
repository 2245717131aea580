// Program memstats reads the heap's size from runtime.ReadMemStats as a
// test of memory use does: it grows by what the program allocates and
// keeps, and shrinks once a collection finds it unreachable.
package main

import (
	"fmt"
	"runtime"
)

func main() {
	var m runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&m)
	before := m.HeapAlloc
	buf := make([]byte, 10<<20)
	buf[0] = 1
	runtime.ReadMemStats(&m)
	fmt.Println("grew by 10 MB:", m.HeapAlloc-before >= 10<<20, m.HeapInuse >= 10<<20, m.Sys >= m.HeapAlloc)
	fmt.Println("kept:", buf[0])
	runtime.GC()
	runtime.ReadMemStats(&m)
	fmt.Println("dropped:", m.HeapAlloc < before+1<<20, m.NumGC >= 2)
}
