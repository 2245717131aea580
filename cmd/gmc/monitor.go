package main

import (
	"fmt"
	"os"

	"github.com/gmc-go/gmc/vm/trace"
)

// defaultMonitors is --monitor's default (see benchmarks/RESULTS.md,
// "Session 6: lock-graph monitor", for the measurement behind it).
const defaultMonitors = "lockgraph"

// printMonitorNotes prints, in text mode, the predictions no execution
// showed, as notes (never errors), and the prediction a deadlock came from.
func printMonitorNotes(rep *trace.Report) {
	if rep.Error != nil && rep.Error.PredictedFrom != nil {
		p := rep.Error.PredictedFrom
		if p.Monitor == "predict" {
			fmt.Fprintf(os.Stderr, "gmc: the predictive race monitor predicted this race after %d states:", p.States)
			for _, a := range p.Accesses {
				fmt.Fprintf(os.Stderr, " a %s by goroutine %d at %s;", a.Op, a.G, a.At)
			}
			fmt.Fprintln(os.Stderr)
		} else {
			fmt.Fprintf(os.Stderr, "gmc: the lock-graph monitor predicted this deadlock after %d states:", p.States)
			for _, e := range p.Cycle {
				fmt.Fprintf(os.Stderr, " goroutine %d holds a %s lock (locked at %s) and acquires a %s lock at %s;", e.G, e.Holds, e.HeldAt, e.Acquires, e.AcquireAt)
			}
			fmt.Fprintln(os.Stderr)
		}
	}
	if rep.Monitor == nil {
		return
	}
	for _, u := range rep.Monitor.Unconfirmed {
		fmt.Fprintf(os.Stderr, "gmc: note: a monitor predicted what no explored execution showed (not an error): %s\n", u)
	}
}
