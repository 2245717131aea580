// Command sharedcells loads atomically from a large table (a race detector
// update) and writes it, in orders that differ between schedules: each
// schedule must see its own writes only (the table's pages are shared
// between states until written).
package main

import (
	"fmt"
	"sync"
	"sync/atomic"
)

type slot struct {
	n   atomic.Int64
	pad [60]byte
}

var table [128]slot

func main() {
	var wg sync.WaitGroup
	var saw int64
	wg.Add(2)
	go func() {
		defer wg.Done()
		table[0].n.Store(1)
		table[0].pad[0] = 1
	}()
	go func() {
		defer wg.Done()
		saw = table[0].n.Load()
		if saw == 0 {
			table[1].pad[0] = 7
		}
	}()
	wg.Wait()
	fmt.Println(saw, table[0].pad[0], table[1].pad[0])
}
