package main

import "testing"

// FuzzVecRace is the seed's VecRace: x and y choose the two goroutines'
// operations (see race). The seed input does not reach the race.
func FuzzVecRace(f *testing.F) {
	f.Add(0, 0)
	f.Fuzz(func(t *testing.T, x, y int) {
		race(x, y)
	})
}
