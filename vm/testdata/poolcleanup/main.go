// Program poolcleanup registers a pool cleanup of its own with sync's
// runtime hook, pulled by //go:linkname, and chains sync's own, as
// bytedance/gopkg's syncx.Pool does. Go calls the cleanup at the start of
// a collection; gmc's collections never empty a pool, so gmc prints
// "cleanups: false" where go run prints true. It also compares strings
// with runtime.cmpstring, pulled the same way (bytedance/gopkg's skipmap).
package main

import (
	"fmt"
	"runtime"
	"sync"
	_ "unsafe"
)

//go:linkname runtime_registerPoolCleanup sync.runtime_registerPoolCleanup
func runtime_registerPoolCleanup(cleanup func())

//go:linkname runtime_poolCleanup sync.poolCleanup
func runtime_poolCleanup()

//go:linkname cmpstring runtime.cmpstring
func cmpstring(a, b string) int

var (
	mu       sync.Mutex
	cleanups int
)

func poolCleanup() {
	runtime_poolCleanup()
	cleanups++
}

func main() {
	runtime_registerPoolCleanup(poolCleanup)
	runtime.GC()
	mu.Lock()
	fmt.Println("cleanups:", cleanups > 0)
	mu.Unlock()
	fmt.Println(cmpstring("a", "b"), cmpstring("b", "a"), cmpstring("ab", "ab"), cmpstring("ab", "abc"))
}
