package heuristics

import (
	"github.com/gmc-go/gmc/vm"
	"github.com/gmc-go/gmc/vm/loc"
)

// Rank is the ranking of one search state: the two tiers of the meta
// heuristic and the heuristic's own per-path data.
type Rank struct {
	Level int // tier 1: abstract-trace locations matched along the path (larger is better)
	H     int // tier 2: secondary heuristic value (smaller is better)
	Data  any // per-path data of the heuristic (immutable)
	// Stalled is set when the path reached a branch of the trace and took
	// the undesired side (the refinement trigger of Fig. 2.4 line 14).
	Stalled *Stall
}

// Stall describes a branch of an abstract trace that an execution could
// not take the desired way.
type Stall struct {
	Trace  int     // index of the trace in the trace set
	Step   int     // index of the branch step in the trace
	Branch loc.Loc // the branch location
}

// Ranker ranks the states of a guided search.
type Ranker interface {
	// Root ranks the initial state.
	Root(s *vm.State) Rank
	// Rank ranks child, reached from a state ranked parent by choice c.
	Rank(parent Rank, child *vm.State, c vm.Choice) Rank
	// Goal reports whether the state, ranked r, is a goal: every target of
	// the trace set is reached by a distinct goroutine at once.
	Goal(r Rank, s *vm.State) bool
}

// Rebaser is a Ranker whose ranks of a path can be recomputed against a
// changed trace set without the path's states (see Meta.Rebase): the
// guided search resumes after a refinement instead of starting again.
type Rebaser interface {
	Ranker
	// Rebase ranks, under this ranker, the step of a path that old ranked
	// (under the ranker before the change), given the parent's new rank:
	// the first tier and per-path data only.
	Rebase(parent, old Rank) Rank
	// TracePos is the number of steps of trace i a path ranked r matched.
	TracePos(r Rank, i int) int
}

// Estimator is a Ranker that can rank a choice before it runs (the guided
// search's lazy successors: it runs the best choice of a state and the
// others only when it backtracks to them).
type Estimator interface {
	Ranker
	// Estimate is the secondary value (smaller is better) choice c of
	// state s, ranked parent, is expected to get.
	Estimate(parent Rank, s *vm.State, c vm.Choice) int
}
