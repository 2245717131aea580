// Package slowstates is a test whose states are slow: each transition of
// its workers runs a busy loop of about half a million VM instructions
// between two lock operations, so a state costs milliseconds, as one of a
// test with thousands of goroutines does (guide's TestWalkShare: the
// fallback's walks still get their share of the time).
package slowstates

import (
	"sync"
	"testing"
)

// busy returns a sum of n terms (work between two scheduling points).
func busy(n int) int {
	s := 0
	for i := 0; i < n; i++ {
		s += i * i
	}
	return s
}

func TestSlow(t *testing.T) {
	var mu sync.Mutex
	var wg sync.WaitGroup
	total := 0
	for w := 0; w < 4; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 50; i++ {
				v := busy(100000)
				mu.Lock()
				total += v & 1
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if total < 0 {
		t.Fatal("negative total")
	}
}
