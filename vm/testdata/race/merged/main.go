// Two schedules reach the same program state with different
// happens-before: when the worker locks first, main's read of x is ordered
// after the worker's write; when main locks first, it is not (a race). A
// search that merges states must tell them apart.
package main

import "sync"

var (
	x  int
	mu sync.Mutex
)

func main() {
	done := make(chan bool)
	go func() {
		x = 1
		mu.Lock()
		mu.Unlock()
		done <- true
	}()
	mu.Lock()
	mu.Unlock()
	_ = x
	<-done
}
