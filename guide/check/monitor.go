package check

import (
	"github.com/gmc-go/gmc/guide"
	"github.com/gmc-go/gmc/vm"
	"github.com/gmc-go/gmc/vm/trace"
)

// monitorReport is the report's "monitor" object: what the monitors of
// the trial of the counterexample (else of the first trial) saw.
func monitorReport(cfg Config, l Prepared, res *guide.CheckResult) *trace.MonitorInfo {
	if !cfg.Monitors.Any() {
		return nil
	}
	mi := &trace.MonitorInfo{Monitors: cfg.Monitors.Names()}
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
			mi.Unconfirmed = append(mi.Unconfirmed, p.Describe(l.Prog.Fset))
		}
	}
	return mi
}

// predictionInfo converts a prediction for the report.
func predictionInfo(l Prepared, p *guide.Prediction) *trace.PredictionInfo {
	pi := &trace.PredictionInfo{Monitor: "lockgraph", States: p.States}
	if r := p.Race; r != nil {
		pi.Monitor = "predict"
		for _, a := range []guide.RaceAccess{r.First, r.Second} {
			op := "read"
			if a.Write {
				op = "write"
			}
			pi.Accesses = append(pi.Accesses, trace.AccessInfo{G: a.G, Op: op, At: a.At.Position(l.Prog.Fset)})
		}
	}
	for _, e := range p.Cycle {
		pi.Cycle = append(pi.Cycle, trace.CycleEdgeInfo{G: e.G, Holds: modeName(e.HeldMode), HeldAt: e.HeldAt.Position(l.Prog.Fset),
			Acquires: modeName(e.AcquireMode), AcquireAt: e.AcquireAt.Position(l.Prog.Fset)})
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
