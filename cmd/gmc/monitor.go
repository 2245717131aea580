package main

import (
	"fmt"
	"os"

	"github.com/gmc-go/gmc/guide"
	"github.com/gmc-go/gmc/vm"
	"github.com/gmc-go/gmc/vm/trace"
)

// defaultMonitors is --monitor's default (see benchmarks/RESULTS.md,
// "Session 6: lock-graph monitor", for the measurement behind it).
const defaultMonitors = "lockgraph"

// monitorReport is the report's "monitor" object: what the monitors of
// the trial of the counterexample (else of the first trial) saw.
func monitorReport(f *checkFlags, l *loaded, res *guide.CheckResult) *trace.MonitorInfo {
	if !f.monitors.LockGraph {
		return nil
	}
	mi := &trace.MonitorInfo{Monitors: []string{"lockgraph"}}
	t := res.Best
	if t == nil && len(res.Trials) > 0 {
		t = &res.Trials[0]
	}
	if t == nil {
		return mi
	}
	mi.Predictions = len(t.Predictions)
	for i, p := range t.Predictions {
		if i == 0 {
			n := p.States
			mi.FirstPredictionStates = &n
		}
		if p != t.PredictedFrom {
			mi.Unconfirmed = append(mi.Unconfirmed, p.Describe(l.prog.Fset))
		}
	}
	return mi
}

// predictionInfo converts a prediction for the report.
func predictionInfo(l *loaded, p *guide.Prediction) *trace.PredictionInfo {
	pi := &trace.PredictionInfo{Monitor: "lockgraph", States: p.States}
	for _, e := range p.Cycle {
		pi.Cycle = append(pi.Cycle, trace.CycleEdgeInfo{G: e.G, Holds: modeName(e.HeldMode), HeldAt: e.HeldAt.Position(l.prog.Fset),
			Acquires: modeName(e.AcquireMode), AcquireAt: e.AcquireAt.Position(l.prog.Fset)})
	}
	return pi
}

func modeName(m vm.LockMode) string {
	switch m {
	case vm.LockRead:
		return "read"
	case vm.LockChan:
		return "chan"
	}
	return "write"
}

// printMonitorNotes prints, in text mode, the predictions no execution
// showed, as notes (never errors), and the prediction a deadlock came from.
func printMonitorNotes(rep *trace.Report) {
	if rep.Error != nil && rep.Error.PredictedFrom != nil {
		p := rep.Error.PredictedFrom
		fmt.Fprintf(os.Stderr, "gmc: the lock-graph monitor predicted this deadlock after %d states:", p.States)
		for _, e := range p.Cycle {
			fmt.Fprintf(os.Stderr, " goroutine %d holds a %s lock (locked at %s) and acquires a %s lock at %s;", e.G, e.Holds, e.HeldAt, e.Acquires, e.AcquireAt)
		}
		fmt.Fprintln(os.Stderr)
	}
	if rep.Monitor == nil {
		return
	}
	for _, u := range rep.Monitor.Unconfirmed {
		fmt.Fprintf(os.Stderr, "gmc: note: the lock-graph monitor predicted a lock-order cycle no explored execution showed (not an error): %s\n", u)
	}
}
