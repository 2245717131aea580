// Two goroutines take the locks a and b in opposite orders: the runs in
// which one finishes before the other starts do not deadlock, and show
// the lock-graph monitor the cycle a→b→a.
package main

import "sync"

var (
	a, b sync.Mutex
	wg   sync.WaitGroup
	n    int
)

func ab() {
	defer wg.Done()
	a.Lock()
	b.Lock() // want "acquire"
	n++
	b.Unlock()
	a.Unlock()
}

func ba() {
	defer wg.Done()
	b.Lock()
	a.Lock() // want "acquire"
	n++
	a.Unlock()
	b.Unlock()
}

func main() {
	wg.Add(2)
	go ab()
	go ba()
	wg.Wait()
}
