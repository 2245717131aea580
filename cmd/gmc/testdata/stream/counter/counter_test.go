// Package counter is one of the two packages gmc check --json-stream runs
// over in cmd/gmc's TestJSONStream: a sequential test (no error,
// exhausted) and a lost update (an error).
package counter

import (
	"sync"
	"sync/atomic"
	"testing"
)

func TestSum(t *testing.T) {
	s := 0
	for i := 0; i < 10; i++ {
		s += i
	}
	if s != 45 {
		t.Fatal("bad sum")
	}
}

// TestLost increments without a lock: an interleaving loses an update.
func TestLost(t *testing.T) {
	var n int32
	var wg sync.WaitGroup
	for i := 0; i < 2; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			v := atomic.LoadInt32(&n)
			atomic.StoreInt32(&n, v+1)
		}()
	}
	wg.Wait()
	if atomic.LoadInt32(&n) != 2 {
		t.Fatal("lost update")
	}
}
