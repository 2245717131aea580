package guide

import "github.com/gmc-go/gmc/vm"

// This file holds the iterated preemption-bounded search (CHESS: bound 0,
// 1, 2, …) and the resumable driver that alternates it with the full
// sleep-set search (exhaustive.go) under a budget of states.

// boundKey is what the future of a bounded search depends on besides the
// preemptions it has left: the state (its fingerprint, vm.State.Hash) and
// which goroutine a switch would preempt.
type boundKey struct {
	h    uint64
	last int // the goroutine that ran last and may not be switched from for free; -1 none
}

// preemptible returns the goroutine that choosing another goroutine at s
// would preempt, or -1 when a switch is free: the goroutine that ran last
// is still enabled and did not yield (runtime.Gosched).
func preemptible(s *vm.State, choices []vm.Choice) int {
	if s.Depth() == 0 {
		return -1
	}
	ls := s.LastStep()
	if ls.Op == "runtime.Gosched" {
		return -1
	}
	for _, c := range choices {
		if c.Kind != vm.ChooseTimer && c.G == ls.G {
			return ls.G
		}
	}
	return -1
}

// boundedOutcome is the outcome of one bounded search.
type boundedOutcome struct {
	found    *vm.State
	path     *pathNode
	complete bool // every schedule with at most k preemptions explored (within the depth bound)
	pruned   bool // the bound cut some schedule (otherwise the space is exhausted)
	depth    bool // the depth bound cut a path (the search can never complete)
	inexact  bool // a state with a pending timer was merged: no claim
}

// preemptionBounded explores, depth first, every schedule of root with at most k
// preemptions: a preemption is choosing another goroutine while the
// goroutine that ran last is enabled and did not yield; firing a timer, a
// data choice and a switch after a yield or a block are free. The
// visited set maps each (fingerprint, preemptible goroutine) to the fewest
// preemptions it was reached with; a state reached again with no fewer is
// not explored again (its subtree was, with at least as much budget).
// No sleep sets: they do not combine soundly with the bound.
func (se *searcher) preemptionBounded(root *vm.State, k int, limit int) boundedOutcome {
	var out boundedOutcome
	visited := map[boundKey]int{}
	startStates := se.stats.States
	stopped := false
	var explore func(s *vm.State, p *pathNode, used int)
	explore = func(s *vm.State, p *pathNode, used int) {
		if out.found != nil || stopped {
			return
		}
		if se.stop(p.depth) || (limit > 0 && se.stats.States-startStates >= limit) {
			stopped = true
			return
		}
		choices := s.Choices()
		last := preemptible(s, choices)
		key := boundKey{s.Hash(), last}
		if u, seen := visited[key]; seen && u <= used {
			if s.TimersPending() {
				out.inexact = true // a spin that fires a timer may be cut (vm.State.TimersPending)
			}
			return
		}
		visited[key] = used
		if p.depth >= se.cfg.MaxDepth {
			stopped, out.depth = true, true
			return
		}
		for i, c := range choices {
			nu := used
			if last >= 0 && c.Kind != vm.ChooseTimer && c.G != last {
				nu++
			}
			if nu > k {
				out.pruned = true
				continue
			}
			n := se.step(s, i)
			np := p.child(i)
			if isError(n) {
				out.found, out.path = n, np
				return
			}
			explore(n, np, nu)
			if out.found != nil || stopped {
				return
			}
			se.stats.Backtracks++
		}
	}
	explore(root, &pathNode{}, 0)
	out.complete = !stopped && out.found == nil && !out.inexact
	return out
}

// boundRun is the state of an iterated bounded search across rounds of a
// check: the bound it works on, the highest bound completed, and whether
// the space is exhausted.
type boundRun struct {
	k         int  // the bound being searched
	done      int  // the highest bound completed; -1 none
	exhausted bool // every schedule explored
	fullDone  bool // the full sleep-set search ran out of depth (it cannot finish)
	stuck     bool // the bounded search ran out of depth (it cannot complete)
}

func newBoundRun() *boundRun { return &boundRun{done: -1} }

// round spends about budget states: half on the full sleep-set search
// (which, when it finishes, exhausts the space), the rest on the bounded
// search at the current bound, going on to the next bound whenever one
// completes. It returns an error result when either search finds one.
func (br *boundRun) round(se *searcher, root *vm.State, budget int) (Result, bool) {
	if isError(root) {
		return se.result(VerdictError, root, &pathNode{}), true
	}
	if br.exhausted {
		return Result{}, false
	}
	if !br.fullDone {
		r := se.exhaustiveLimited(root, max(budget/2, 1))
		switch r.Verdict {
		case VerdictError:
			return r, true
		case VerdictNoError:
			br.exhausted = true
			return Result{}, false
		}
		if se.bounded && !se.limitHit {
			br.fullDone = true
		}
		se.bounded, se.limitHit = false, false
	}
	if br.stuck {
		return Result{}, false
	}
	start := se.stats.States
	for left := budget - budget/2; left > 0; left = budget - budget/2 - (se.stats.States - start) {
		o := se.preemptionBounded(root, br.k, left)
		if o.found != nil {
			return se.result(VerdictError, o.found, o.path), true
		}
		if o.depth || o.inexact {
			br.stuck = true
		}
		if !o.complete {
			break
		}
		if !o.pruned {
			br.exhausted = true
			break
		}
		br.done = br.k
		br.k++
	}
	return Result{}, false
}

// verdict is the no-error result the rounds so far support, if any.
func (br *boundRun) verdict(se *searcher) (Result, bool) {
	switch {
	case br.exhausted:
		r := se.result(VerdictNoError, nil, nil)
		r.Exhausted = true
		return r, true
	case br.done >= 0:
		r := se.result(VerdictNoError, nil, nil)
		r.Preemptions = br.done
		return r, true
	}
	return Result{}, false
}

// iterated is the exhaustive strategy: rounds of boundRun with a budget
// that doubles from 1,000 states until the space is exhausted, an error
// is found, or a bound of the search (time, states) stops it; then the
// highest completed preemption bound is the verdict's.
func (se *searcher) iterated(root *vm.State) Result {
	br := newBoundRun()
	for budget := 1000; ; budget *= 2 {
		if r, found := br.round(se, root, budget); found {
			return r
		}
		if br.exhausted || se.outOfBudget() || (br.fullDone && br.stuck) {
			break
		}
	}
	if r, ok := br.verdict(se); ok {
		return r
	}
	return se.result(VerdictUnknown, nil, nil)
}
