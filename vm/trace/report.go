package trace

import (
	"github.com/gmc-go/gmc/vm"
)

// Verdicts of a run or a search.
const (
	VerdictError   = "error"
	VerdictNoError = "no-error"
	VerdictUnknown = "unknown"
)

// Report is the JSON object printed by --json (DESIGN §4).
type Report struct {
	Verdict string `json:"verdict"`
	// Timing is the time model of the run that found the error or of the
	// run (vm.Options.Timing), with a trace only: "any" says the finding
	// may need a timer to fire before its duration has passed.
	Timing string     `json:"timing,omitempty"`
	Error  *ErrorInfo `json:"error,omitempty"`
	Trace  *Trace     `json:"trace,omitempty"`
	Stats  Stats      `json:"stats"`
	// Bound is what a no-error verdict covers (nil otherwise).
	Bound *Bound `json:"bound,omitempty"`
}

// Bound is the extent of a no-error verdict: the whole state space
// ({"exhausted": true}) or every schedule with at most Preemptions
// preemptions ({"preemptions": k}), for the data inputs explored.
type Bound struct {
	Exhausted   bool `json:"exhausted,omitempty"`
	Preemptions *int `json:"preemptions,omitempty"`
}

// ErrorInfo describes the error found.
type ErrorInfo struct {
	Kind       string          `json:"kind"`
	Message    string          `json:"message"`
	Pos        string          `json:"pos"`
	Goroutines []GoroutineInfo `json:"goroutines,omitempty"`
}

// GoroutineInfo is one goroutine of an error report.
type GoroutineInfo struct {
	ID     int      `json:"id"`
	Status string   `json:"status"`
	Wait   string   `json:"wait,omitempty"`
	Start  string   `json:"start,omitempty"`
	Stack  []string `json:"stack"`
}

// Stats are the counters of a run or search.
type Stats struct {
	States           float64 `json:"states"`
	Transitions      float64 `json:"transitions"`
	Instructions     float64 `json:"instructions"`
	Backtracks       float64 `json:"backtracks"`
	Refinements      float64 `json:"refinements"`
	Restarts         float64 `json:"restarts"` // guided searches started again from the initial state after a refinement
	TraceLen         float64 `json:"trace_len"`
	TimeS            float64 `json:"time_s"`
	PeakMemBytes     float64 `json:"peak_mem_bytes"`
	SolverCalls      float64 `json:"solver_calls,omitempty"`
	SolverTimeS      float64 `json:"solver_time_s,omitempty"`
	Trials           int     `json:"trials"`
	SuccessfulTrials int     `json:"successful_trials"`
	Min              *Stats  `json:"min,omitempty"`
	Max              *Stats  `json:"max,omitempty"`
}

// ErrorOf converts a VM error for the report.
func ErrorOf(e *vm.Error) *ErrorInfo {
	if e == nil {
		return nil
	}
	ei := &ErrorInfo{Kind: string(e.Kind), Message: e.Msg, Pos: e.Pos}
	for _, g := range e.Goroutines {
		gi := GoroutineInfo{ID: g.ID, Status: g.Status, Wait: g.Wait, Start: g.Start, Stack: []string{}}
		for _, f := range g.Stack {
			gi.Stack = append(gi.Stack, f.Func+" "+f.Pos)
		}
		ei.Goroutines = append(ei.Goroutines, gi)
	}
	return ei
}
