// The AB-BA orders of abba, each under the gate lock g: the goroutines
// never hold a and b at once, so no deadlock is possible and the monitor
// predicts none.
package main

import "sync"

var (
	g, a, b sync.Mutex
	wg      sync.WaitGroup
	n       int
)

func ab() {
	defer wg.Done()
	g.Lock()
	a.Lock()
	b.Lock()
	n++
	b.Unlock()
	a.Unlock()
	g.Unlock()
}

func ba() {
	defer wg.Done()
	g.Lock()
	b.Lock()
	a.Lock()
	n++
	a.Unlock()
	b.Unlock()
	g.Unlock()
}

func main() {
	wg.Add(2)
	go ab()
	go ba()
	wg.Wait()
}
