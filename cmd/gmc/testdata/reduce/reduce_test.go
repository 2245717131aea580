// Package reduce holds a lock-order warning a gate lock makes infeasible,
// in goroutines that also update statistics nothing reads: gmc confirm's
// warning-specific reduction does not interleave those updates, so it
// dismisses the warning in fewer states than the plain exhaustive search.
// TestABBAStats, the same without the gate, deadlocks (in some runs under
// go test): confirmed under the reduction, its trace replays.
package reduce

import (
	"sync"
	"testing"
)

var gate, a, b, c, d sync.Mutex

// stats are counters no branch, index or lock depends on.
type stats struct{ loops, sum, locked int }

func TestGatedStats(t *testing.T) {
	var st [2]stats
	var wg sync.WaitGroup
	wg.Add(2)
	for g := 0; g < 2; g++ {
		s := &st[g]
		first, second := &c, &d
		if g == 1 {
			first, second = &d, &c
		}
		go func() {
			defer wg.Done()
			for i := 0; i < 3; i++ {
				s.loops++
				s.sum += i
			}
			gate.Lock()
			first.Lock()
			second.Lock()
			s.locked++
			second.Unlock()
			first.Unlock()
			gate.Unlock()
		}()
	}
	wg.Wait()
	t.Log(st[0].sum + st[1].sum)
}

func TestABBAStats(t *testing.T) {
	var st [2]stats
	var wg sync.WaitGroup
	wg.Add(2)
	for g := 0; g < 2; g++ {
		s := &st[g]
		first, second := &a, &b
		if g == 1 {
			first, second = &b, &a
		}
		go func() {
			defer wg.Done()
			for i := 0; i < 3; i++ {
				s.loops++
				s.sum += i
			}
			first.Lock()
			second.Lock()
			s.locked++
			second.Unlock()
			first.Unlock()
		}()
	}
	wg.Wait()
	t.Log(st[0].sum + st[1].sum)
}
