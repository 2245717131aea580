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
