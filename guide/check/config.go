// Package check is gmc check's pipeline, which cmd/gmc calls and formats:
// for each entry, the search (guide.Check: which strategies run, within
// the time limit), the concretization of a counterexample's symbolic
// inputs, its replay (which must give the same error), its trace, the
// flip of a race found (guide.Flip), and the report of the JSON contract
// (trace.Report, DESIGN.md §4). Search checks one entry; Entries checks
// each entry of a selection in turn (vm.ListEntries, vm.SelectEntries).
// The report's verdict is guide.CheckResult.EntryVerdict: "skip" for a
// test that skipped in every execution explored, with the search's
// bound and the test's log (trace.Report.Skip).
//
// cmd/gmc keeps the flags, the output formats (text, JSON, the event
// stream, SARIF, timelines) and the exit codes; an error of this package
// is bad input or an unsupported feature, or an *InternalError.
package check

import (
	"errors"
	"time"

	"github.com/gmc-go/gmc/guide"
	"github.com/gmc-go/gmc/heuristics"
	"github.com/gmc-go/gmc/vm"
	"github.com/gmc-go/gmc/vm/load"
	"github.com/gmc-go/gmc/vm/loc"
)

// Config is what a check of an entry is asked to do (gmc check's flags).
type Config struct {
	// Pkg is the package as a trace records it (a directory made
	// absolute, so that traces replay from anywhere); ProgArgs the
	// program's arguments.
	Pkg      string
	ProgArgs []string
	// Targets are the locations to reach (all at once); TargetSpecs
	// their file:line forms as given, for the message of a reached target.
	// Without targets the check is the portfolio of guide.CheckConfig.Bounded.
	Targets     []loc.Loc
	TargetSpecs []string
	Strategy    guide.Strategy
	Heuristic   heuristics.Secondary
	Seed        uint64
	Trials      int
	Parallel    int
	AllTrials   bool
	TimeLimit   time.Duration
	// Depth is the maximum number of transitions of an execution (as
	// --depth gives it: its default of 10,000,000 means 100,000 for the
	// search).
	Depth         int
	MaxBacktrack  int
	NoRefine      bool
	Eager         bool
	RestartRefine bool
	Monitors      guide.Monitors
	// Flip runs a race's two accesses in both orders (guide.Flip) within
	// a share of TimeLimit.
	Flip bool
	// Timeline replays the counterexample on a machine that records
	// synchronizations, for Outcome.Timeline.
	Timeline bool
	Progress func(guide.Progress)
}

// Prepared is an entry ready to check: its program, the machine with the
// VM options of the check, and the entry.
type Prepared struct {
	Prog  *load.Program
	M     *vm.Machine
	Entry vm.Entry
}

// InternalError is an error of gmc itself (a counterexample that does not
// replay, an internal error of the VM), as opposed to bad input or an
// unsupported feature of the program. Its message is the inner error's.
type InternalError struct{ Err error }

func (e *InternalError) Error() string { return e.Err.Error() }
func (e *InternalError) Unwrap() error { return e.Err }

// IsInternal reports whether err is (or wraps) an *InternalError.
func IsInternal(err error) bool {
	var ie *InternalError
	return errors.As(err, &ie)
}

// CheckList is the trace's list of the checks o enables beyond panics and
// deadlocks: "leak", "race".
func CheckList(o vm.Options) []string {
	var cs []string
	if o.Checks.Leak {
		cs = append(cs, "leak")
	}
	if o.Checks.Race {
		cs = append(cs, "race")
	}
	return cs
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
