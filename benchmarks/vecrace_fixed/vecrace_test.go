package main

import "testing"

// FuzzVecRace is the repaired VecRace: x and y choose the two goroutines'
// operations (see race). The second seed input is one that reaches the race
// in the unrepaired vecrace.
func FuzzVecRace(f *testing.F) {
	f.Add(0, 0)
	f.Add(20, 101)
	f.Fuzz(func(t *testing.T, x, y int) {
		race(x, y)
	})
}
