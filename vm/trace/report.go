package trace

import (
	"github.com/gmc-go/gmc/vm"
)

// Verdicts of a run or a search.
const (
	VerdictError   = "error"
	VerdictNoError = "no-error"
	VerdictUnknown = "unknown"
	// VerdictSkip: the test skipped in every execution the check
	// explored, none with an error (go test's SKIP); Skip says why.
	VerdictSkip = "skip"
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
	// Bound is what a no-error verdict covers, and a skip verdict's when
	// the search that saw only skips had a no-error bound (nil
	// otherwise).
	Bound *Bound `json:"bound,omitempty"`
	// Skip is what a skip verdict's test logged (nil for the others).
	Skip *SkipInfo `json:"skip,omitempty"`
	// Monitor says what the runtime monitors (gmc check --monitor) saw;
	// omitted when none ran.
	Monitor *MonitorInfo `json:"monitor,omitempty"`
}

// SkipInfo is why a test skipped: its log in the first execution
// explored that skipped, as go test prints it ("file.go:12: message";
// the t.Skip message is the last line).
type SkipInfo struct {
	Log []string `json:"log"`
}

// MonitorInfo is what the runtime monitors of a check saw, in the trial
// of the counterexample (else the first trial).
type MonitorInfo struct {
	Monitors []string `json:"monitors"`
	// Predictions is the number of lock-order cycles and races the
	// monitors predicted; FirstPredictionStates the states the trial had
	// generated when it first saw one (absent: none).
	Predictions           int  `json:"predictions"`
	FirstPredictionStates *int `json:"first_prediction_states,omitempty"`
	// Unconfirmed describes the predictions no execution showed: notes,
	// never errors.
	Unconfirmed []string `json:"unconfirmed,omitempty"`
}

// PredictionInfo is the prediction a reported deadlock or race came from
// (error.predicted_from): a cycle of the lock-graph monitor, or a race of
// the predictive race monitor, that guided the search to the error.
type PredictionInfo struct {
	Monitor string          `json:"monitor"` // "lockgraph" or "predict"
	Cycle   []CycleEdgeInfo `json:"cycle,omitempty"`
	// Accesses are a predicted race's two accesses (monitor "predict").
	Accesses []AccessInfo `json:"accesses,omitempty"`
	// States is the number of states the trial had generated when the
	// cycle was predicted.
	States int `json:"states"`
}

// AccessInfo is one access of a predicted race: goroutine G read or wrote
// (Op) at At in the run the race was predicted from.
type AccessInfo struct {
	G  int    `json:"g"`
	Op string `json:"op"` // "read" or "write"
	At string `json:"at"`
}

// CycleEdgeInfo is one goroutine's part of a predicted cycle: it held a
// lock (locked at HeldAt) when it acquired the next one at AcquireAt. The
// modes are "write" (Mutex, RWMutex.Lock), "read" (RWMutex.RLock) or
// "chan" (a capacity-1 channel used as a lock).
type CycleEdgeInfo struct {
	G         int    `json:"g"`
	Holds     string `json:"holds"`
	HeldAt    string `json:"held_at"`
	Acquires  string `json:"acquires"`
	AcquireAt string `json:"acquire_at"`
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
	// PredictedFrom is the lock-graph prediction that led the search to
	// this deadlock (absent when none did).
	PredictedFrom *PredictionInfo `json:"predicted_from,omitempty"`
	// Harmful (a race that gmc check flipped): true when running its
	// accesses in one of the two orders leads to a failure (Flip has it),
	// false when neither order can fail within Flip.Bound; absent when
	// unknown (Flip.Cut says why) or when the race was not flipped.
	Harmful *bool `json:"harmful,omitempty"`
	Flip    *Flip `json:"flip,omitempty"`
}

// Flip is the outcome of flipping a race (guide.Flip): the race's two
// accesses run in both orders, each continued by a search for a failure
// with races no longer errors. A harmful race's failure and its
// counterexample are Error and Trace, so that the object is itself a
// trace file for gmc replay.
type Flip struct {
	Orders []FlipOrder `json:"orders"`
	States int         `json:"states"`
	// Bound of a harmless verdict: both continuations exhausted, or every
	// schedule with at most so many preemptions explored in each.
	Bound *Bound `json:"bound,omitempty"`
	// Cut says why harmful is unknown: the time budget ran out, or an
	// order could not be set up.
	Cut string `json:"cut,omitempty"`
	// Order is the failing order ("as found" or "flipped").
	Order string     `json:"order,omitempty"`
	Error *ErrorInfo `json:"error,omitempty"`
	Trace *Trace     `json:"trace,omitempty"`
	// TraceFile is where the failing trace was written (gmc check --out).
	TraceFile string `json:"trace_file,omitempty"`
}

// FlipOrder is the outcome of one order of a flipped race: the
// continuation's verdict (error, no-error, unknown), its states, the bound
// of a no-error verdict, or why the order could not be set up.
type FlipOrder struct {
	Order   string `json:"order"`
	Verdict string `json:"verdict"`
	States  int    `json:"states"`
	Bound   *Bound `json:"bound,omitempty"`
	Skipped string `json:"skipped,omitempty"`
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
