package main

import (
	"fmt"
	"os"
	"runtime/pprof"
)

// startCPUProfile writes a CPU profile of the command to file
// (GMC_CPUPROFILE=file, for measuring gmc itself); it returns the function
// that ends it, or nil when the profile cannot start.
func startCPUProfile(file string) func() {
	f, err := os.Create(file)
	if err != nil {
		fmt.Fprintf(os.Stderr, "gmc: GMC_CPUPROFILE: %v\n", err)
		return nil
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		fmt.Fprintf(os.Stderr, "gmc: GMC_CPUPROFILE: %v\n", err)
		f.Close()
		return nil
	}
	return func() {
		pprof.StopCPUProfile()
		f.Close()
	}
}

// writeHeapProfile writes a heap profile (the allocations still live at the
// last garbage collection) to file (GMC_MEMPROFILE=file): when gmc ends, or
// GMC_MEMPROFILE_AT (a duration) after it starts, after a collection.
func writeHeapProfile(file string) {
	f, err := os.Create(file)
	if err != nil {
		fmt.Fprintf(os.Stderr, "gmc: GMC_MEMPROFILE: %v\n", err)
		return
	}
	defer f.Close()
	if err := pprof.WriteHeapProfile(f); err != nil {
		fmt.Fprintf(os.Stderr, "gmc: GMC_MEMPROFILE: %v\n", err)
	}
}
