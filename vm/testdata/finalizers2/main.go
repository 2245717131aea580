// Program finalizers2 lets one collection find two objects unreachable:
// each finalizer runs once (a finalizer goroutine used to run the second
// one again and again), and the finalizer goroutine ends.
package main

import (
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"time"
)

type res struct {
	name string
	pad  [8]int
}

func main() {
	begin := runtime.NumGoroutine()
	var runs atomic.Int32
	var wg sync.WaitGroup
	wg.Add(2)
	func() {
		a, b := &res{name: "a"}, &res{name: "b"}
		fin := func(r *res) {
			runs.Add(1)
			wg.Done()
		}
		runtime.SetFinalizer(a, fin)
		runtime.SetFinalizer(b, fin)
	}()
	runtime.GC()
	wg.Wait()
	for i := 0; i < 3; i++ {
		time.Sleep(10 * time.Millisecond)
		runtime.GC()
	}
	fmt.Println("runs:", runs.Load())
	fmt.Println("goroutines:", runtime.NumGoroutine()-begin)
}
