package main

import (
	"os"
	"runtime/debug"
)

// The VM allocates fast over a large live heap (the loaded program, its
// SSA and the search's states): with Go's default GOGC=100 the collector
// takes about a third to two fifths of the CPU. gmc check and gmc bench
// trade memory for time unless GOGC says otherwise, but not past a soft
// limit on a machine others share (unless GOMEMLIMIT says otherwise).

// gcPercent is gmc's GOGC unless the environment sets one.
const gcPercent = 400

// benchMemLimit is gmc's soft memory limit unless GOMEMLIMIT is set.
const benchMemLimit = 6 << 30

// tuneGC applies gcPercent and benchMemLimit where the environment does not
// set them.
func tuneGC() {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(gcPercent)
	}
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(benchMemLimit)
	}
}
