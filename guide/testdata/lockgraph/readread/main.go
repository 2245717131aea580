// Two goroutines take read locks of a and b in opposite orders: readers
// do not exclude each other, so no deadlock is possible and the monitor
// predicts none.
package main

import "sync"

var (
	a, b sync.RWMutex
	wg   sync.WaitGroup
)

func ab() {
	defer wg.Done()
	a.RLock()
	b.RLock()
	b.RUnlock()
	a.RUnlock()
}

func ba() {
	defer wg.Done()
	b.RLock()
	a.RLock()
	a.RUnlock()
	b.RUnlock()
}

func main() {
	wg.Add(2)
	go ab()
	go ba()
	wg.Wait()
}
