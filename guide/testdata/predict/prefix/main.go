// A race a random walk rarely shows and prediction shows at once: main
// sets ready without the lock and then takes the lock; the worker first
// counts its items (each a shared access, so a scheduling point), then
// takes the lock, then reads ready. The happens-before detector sees the
// race only when the worker's critical section runs before main's, which a
// random walk does with a probability of about 2^-items; in every other run
// the lock orders the write before the read. The critical sections touch
// different slots, so weak causal precedence predicts the race from any
// run, and a walk steered toward it (guide/racefuzz.go) shows it in the
// next run.
//
// Usage: prefix [items] (default 12).
package main

import (
	"os"
	"strconv"
	"sync"
)

var (
	mu    sync.Mutex
	done  [2]int
	ready bool
	items []int
)

func main() {
	n := 12
	if len(os.Args) > 1 {
		if v, err := strconv.Atoi(os.Args[1]); err == nil && v >= 0 {
			n = v
		}
	}
	items = make([]int, n)
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for i := range items {
			items[i]++
		}
		mu.Lock()
		done[1]++
		mu.Unlock()
		if !ready { // want "race"
			done[1]--
		}
	}()
	ready = true // want "race"
	mu.Lock()
	done[0]++
	mu.Unlock()
	wg.Wait()
}
