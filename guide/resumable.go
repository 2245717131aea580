package guide

import (
	"iter"

	"github.com/gmc-go/gmc/vm"
)

// resumable runs a depth-first search as a coroutine (iter.Pull) that
// pauses when the budget of states of a round is spent, so that the next
// round goes on where it paused instead of starting again from the root
// (a search whose first complete path is 70,000 transitions long would
// otherwise run it again every round). A search checks its budget with
// over; the driver gives it a budget and runs it with run, and ends it
// with close.
type resumable struct {
	next     func() (struct{}, bool)
	quit     func()
	yield    func(struct{}) bool // set while the coroutine runs; nil: a search that is not resumed
	limit    int                 // states the current run may take (0: no limit)
	base     int                 // se.stats.States when it was given
	finished bool                // the search returned
}

// over reports whether the search must stop: its budget is spent and it
// is not resumed (the driver ended it, or it is not a coroutine). A
// paused search resumes inside over.
//
// A search interrupted by a new prediction of the lock-graph monitor
// (searcher.interrupt) pauses as one whose budget is spent, so that the
// trial searches toward the prediction first; so does one whose turn's
// time is over (searcher.turnEnd: states too slow for the turn's budget).
func (rb *resumable) over(se *searcher) bool {
	for (rb.limit > 0 && se.stats.States-rb.base >= rb.limit) || se.interrupted() || se.turnOver() {
		if rb.yield == nil || !rb.yield(struct{}{}) {
			return true
		}
	}
	return false
}

// run starts body, or resumes it where it paused, with a budget of limit
// states; it reports whether body has returned (false: paused).
func (rb *resumable) run(se *searcher, limit int, body func()) bool {
	rb.limit, rb.base = limit, se.stats.States
	if rb.finished {
		return true
	}
	if rb.next == nil {
		rb.next, rb.quit = iter.Pull(func(yield func(struct{}) bool) {
			rb.yield = yield
			body()
		})
	}
	if _, paused := rb.next(); !paused {
		rb.finished = true
		rb.yield = nil
	}
	return rb.finished
}

// close ends a paused search (it unwinds as one stopped by its budget).
func (rb *resumable) close() {
	if rb.quit != nil {
		rb.quit()
		rb.quit, rb.next = nil, nil
	}
	rb.finished = true
	rb.yield = nil
}

// chainSample and chainFresh say which states with a single successor a
// search looks up in its visited set: the first chainFresh states after
// each state with several (where two paths that only reorder a few
// transitions meet again), then those at depths that are multiples of
// chainSample. Such a state offers no choice, so skipping the lookup (a
// state hash, the most costly part of a state) loses nothing but the
// merge: the search runs on to the next state it looks up. A cycle of
// such states is still met: going around it chainSample times returns to
// one of its states at a depth that is a multiple of chainSample, where
// the lookup finds it on the path.
const (
	chainSample = 64
	chainFresh  = 64
)

// lookUp says whether a search looks up a state with n successors, at
// depth, fresh states after the last state with several.
func lookUp(n, depth, fresh int) bool {
	return n != 1 || fresh < chainFresh || depth%chainSample == 0
}

// keptChoices is the length of choice list a depth-first search keeps on
// the states of its path while it explores below them; a longer one
// (thousands of goroutines) is dropped and built again when the search
// comes back (release): GoKer's Kubernetes58107 held 380 MB of them.
const keptChoices = 64

// release drops, on s, the state a search is about to explore below, the
// record of the canonical order of its goroutines when it has more than
// keptChoices (a word per goroutine, kept on every branching state of the
// path; GoRank rebuilds it when the search comes back and needs it) and
// its choice list when it is longer than keptChoices, and returns the
// list the search may keep (nil: take s.Choices() again after the child).
func release(s *vm.State, choices []vm.Choice) []vm.Choice {
	s.DropRanks(keptChoices) // (rebuilt by GoRank when the search comes back)
	if len(choices) > keptChoices {
		s.DropChoices()
		return nil
	}
	return choices
}
