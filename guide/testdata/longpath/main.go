// Command longpath is one goroutine taking a mutex 3,000 times: a state
// space that is a single path of about 6,000 transitions (guide's
// TestResumedSearch).
package main

import "sync"

func main() {
	var mu sync.Mutex
	n := 0
	for i := 0; i < 3000; i++ {
		mu.Lock()
		n++
		mu.Unlock()
	}
	if n != 3000 {
		panic("lost update")
	}
}
