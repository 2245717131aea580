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
	if !f.monitors.Any() {
		return nil
	}
	mi := &trace.MonitorInfo{Monitors: f.monitors.Names()}
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
	if r := p.Race; r != nil {
		pi.Monitor = "predict"
		for _, a := range []guide.RaceAccess{r.First, r.Second} {
			op := "read"
			if a.Write {
				op = "write"
			}
			pi.Accesses = append(pi.Accesses, trace.AccessInfo{G: a.G, Op: op, At: a.At.Position(l.prog.Fset)})
		}
	}
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
