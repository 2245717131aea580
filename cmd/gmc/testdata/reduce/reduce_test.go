// Package reduce holds a lock-order warning a gate lock makes infeasible,
// in goroutines that also update statistics nothing reads, one of them
// shared without a lock (a race): gmc confirm first checks with every race
// an error (the bounded search then schedules at synchronization only),
// meets the race, and checks the warning alone, where the
// warning-specific reduction does not interleave the statistics' updates
// and dismisses it in fewer states than the plain exhaustive search.
// TestGatedQuiet, the same without the shared counter, is race-free and
// dismissed by the first check. TestABBAStats, the same without the gate,
// deadlocks (in some runs under go test): confirmed under the reduction,
// its trace replays.
package reduce

import (
	"sync"
	"testing"
)

var gate, a, b, c, d, e, f sync.Mutex

// hits counts the goroutines' loops, without a lock: a race nothing reads.
var hits int

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
				hits++
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
				hits++
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

func TestGatedQuiet(t *testing.T) {
	var st [2]stats
	var wg sync.WaitGroup
	wg.Add(2)
	for g := 0; g < 2; g++ {
		s := &st[g]
		first, second := &e, &f
		if g == 1 {
			first, second = &f, &e
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
