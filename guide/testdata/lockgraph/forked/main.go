// main takes a then b and releases both before it starts ba, which takes
// them in the other order: the acquisitions of the cycle are ordered by
// the go statement, so no deadlock is possible and the monitor predicts
// none.
package main

import "sync"

var (
	a, b sync.Mutex
	wg   sync.WaitGroup
	n    int
)

func ba() {
	defer wg.Done()
	b.Lock()
	a.Lock()
	n++
	a.Unlock()
	b.Unlock()
}

func main() {
	a.Lock()
	b.Lock()
	n++
	b.Unlock()
	a.Unlock()
	wg.Add(1)
	go ba()
	wg.Wait()
}
