// Command alone holds the race detector's cases for a goroutine that runs
// alone (vm.TestRaceAlone): its accesses are ordered before every later
// one and are not remembered, but accesses of goroutines that ended
// without synchronizing stay remembered until an access ordered after them
// replaces them.
package main

import (
	"runtime"
	"sync/atomic"
)

var x, y int32

// r1 and r2 take the values read (each written by one goroutine only).
var r1, r2 int32

// waitAlone waits, without synchronizing, until the caller is the only
// goroutine.
func waitAlone() {
	for runtime.NumGoroutine() > 1 {
		runtime.Gosched()
	}
}

// RaceReadAfterEndedReader: a goroutine reads x and ends; the caller, alone,
// reads x (no race: two reads) and then writes it, unordered with the
// other read.
func RaceReadAfterEndedReader() {
	go func() { r1 = x }()
	waitAlone()
	r2 = x
	x = 1
}

// NoRaceAtomicObservedAlone: a goroutine stores y atomically and ends; the
// caller, alone, loads it atomically, observing the store (synchronized
// after it, as the memory model says), and then writes it plainly.
func NoRaceAtomicObservedAlone() {
	go func() { atomic.StoreInt32(&y, 1) }()
	waitAlone()
	for atomic.LoadInt32(&y) != 1 {
		runtime.Gosched()
	}
	y = 2
}

// NoRaceAloneThenShared: the caller writes x alone, then a goroutine it
// starts reads it (ordered by the go statement) while the caller waits.
func NoRaceAloneThenShared() {
	x = 1
	done := make(chan bool)
	go func() { r1 = x; done <- true }()
	<-done
	x = 2
}

// RaceAloneThenUnordered: the caller writes x alone, starts a goroutine,
// and writes x again while the goroutine reads it.
func RaceAloneThenUnordered() {
	x = 1
	go func() { r1 = x }()
	x = 2
	waitAlone()
}

func main() {}
