// Command packed holds the race detector's cases on the elements of
// packed arrays (vm.TestRacePacked): accesses are per element, as for
// cells.
package main

import "sync"

// NoRacePackedNeighbours: two goroutines write neighbouring bytes of a
// big []byte, and words of a big []uint64: different elements, no race.
func NoRacePackedNeighbours() {
	b := make([]byte, 8192)
	w := make([]uint64, 1000)
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		b[4095] = 1
		w[511] = 1
	}()
	b[4096] = 2
	w[512] = 2
	wg.Wait()
	if b[4095]+b[4096] != 3 || w[511]+w[512] != 3 {
		panic("lost a write")
	}
}

// RacePackedWord: two goroutines increment the same word.
func RacePackedWord() {
	w := make([]uint64, 1000)
	done := make(chan bool)
	go func() {
		w[999]++
		done <- true
	}()
	w[999]++
	<-done
}

// RacePackedCopy: copy into a big byte slice races with a read of one of
// the bytes it writes.
func RacePackedCopy() {
	b := make([]byte, 10000)
	src := make([]byte, 100)
	done := make(chan byte)
	go func() { done <- b[9950] }()
	copy(b[9900:], src)
	<-done
}

func main() {
	NoRacePackedNeighbours()
	RacePackedWord()
	RacePackedCopy()
}
