package guide

import (
	"time"

	"github.com/gmc-go/gmc/vm"
)

// This file holds the iterated preemption-bounded search (CHESS: bound 0,
// 1, 2, …) and the resumable driver that alternates it with the full
// sleep-set search (exhaustive.go) under a budget of states.

// boundKey is what the future of a bounded search depends on besides the
// preemptions it has left: the state (its fingerprint, vm.State.Hash) and
// which goroutine a switch would preempt.
type boundKey struct {
	h    uint64
	last int // the rank (vm.State.GoRank) of the goroutine that ran last and may not be switched from for free; -1 none
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

// onlyUnpreempted returns the index of the one choice of choices that
// does not preempt last (a step of last, or a timer firing), and whether
// there is exactly one.
func onlyUnpreempted(choices []vm.Choice, last int) (int, bool) {
	only, n := -1, 0
	for i, c := range choices {
		if c.Kind == vm.ChooseTimer || c.G == last {
			only, n = i, n+1
		}
	}
	return only, n == 1
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

// boundSearch is a search at one preemption bound, resumable: a search
// stopped by its budget pauses (resumable.go) and the next round goes on
// where it paused. Its flags sum up the whole search.
type boundSearch struct {
	k       int
	visited map[boundKey]int // fewest preemptions each state's explored subtree was reached with
	out     boundedOutcome
	rb      resumable
	pay     forcedPay
	lookups int // states looked up in visited
	// soloNo: the goroutines vm.Machine.Solo refused to run alone (not
	// tried again: a cache of the search's cost, not of what it claims)
	soloNo map[int]bool
}

// forcedPay decides whether the first links of the chains a bound forces
// are looked up (boundedRun): while such lookups merge at least one path
// in forcedGain, over a window of the last forcedWindow or so of them;
// when they do not, one link in forcedProbe still is, to measure on. A
// merge inside such a chain (x/sync's TestTryGo and TestGoLimit at bound
// 0: one lookup in five merges, two orders of the workers meeting again
// while the last of them runs) saves the rest of the chain; where none
// comes (abslist_fixed 1 7 at bound 0: none in 184,919), the
// lookups were a third of the search's time (benchmarks/RESULTS.md,
// session 14). Lookups of links are optional (lookUp), so the choice
// changes the time a search takes and what it merges, never what it
// claims.
type forcedPay struct {
	looks, hits int  // in the window
	skipped     int  // links not looked up
	always      bool // look up every link (as before session 14: tests)
}

const (
	forcedGain   = 32
	forcedWindow = 1024
	forcedProbe  = 32
)

// look reports whether to look up the next link; a lookup it allows is
// recorded with counted.
func (f *forcedPay) look() bool {
	if f.always || f.looks < forcedWindow || f.hits*forcedGain >= f.looks {
		return true
	}
	f.skipped++
	return f.skipped%forcedProbe == 0
}

// counted records a lookup look allowed and whether it merged.
func (f *forcedPay) counted(hit bool) {
	if f.looks++; hit {
		f.hits++
	}
	if f.looks >= 2*forcedWindow { // (the older half weighs less)
		f.looks, f.hits = f.looks/2, f.hits/2
	}
}

func newBoundSearch(k int) *boundSearch {
	return &boundSearch{k: k, visited: map[boundKey]int{}, soloNo: map[int]bool{}}
}

// preemptionBounded explores, depth first, every schedule of root with at most k
// preemptions: a preemption is choosing another goroutine while the
// goroutine that ran last is enabled and did not yield; firing a timer, a
// data choice and a switch after a yield or a block are free. The
// visited set maps each (fingerprint, preemptible goroutine) to the fewest
// preemptions it was reached with; a state reached again with no fewer is
// not explored again (its subtree was, with at least as much budget).
// States with a single successor are looked up only now and then
// (lookUp). No sleep sets: they do not combine soundly with the bound.
func (se *searcher) preemptionBounded(root *vm.State, k int, limit int) boundedOutcome {
	bs := newBoundSearch(k)
	defer bs.rb.close()
	return se.resumeBounded(root, bs, limit)
}

// resumeBounded runs bs from root, or from where it paused, for at most
// limit states (0: no limit).
func (se *searcher) resumeBounded(root *vm.State, bs *boundSearch, limit int) boundedOutcome {
	if bs.rb.run(se, limit, func() { se.boundedRun(root, bs) }) {
		return bs.out
	}
	o := bs.out
	o.complete = false // paused
	return o
}

// boundedRun is the search of bs from root, to its end.
func (se *searcher) boundedRun(root *vm.State, bs *boundSearch) {
	out := &bs.out
	visited := bs.visited
	k := bs.k
	// onPath holds the hashes of the looked-up states on the current path:
	// how many times each is there, and the value of pending before its
	// first occurrence; pending counts the states of the path (looked up
	// or not) with a timer pending, so that a back edge knows whether
	// the cycle it closes has one (cutCycle)
	type onPathEntry struct{ n, at int }
	onPath := map[uint64]onPathEntry{}
	pending := 0
	stopped := false
	type mark struct { // a state of the current path in visited
		key  boundKey
		prev int
		seen bool
	}
	var explore func(s *vm.State, p *pathNode, used int)
	explore = func(s *vm.State, p *pathNode, used int) {
		var marks []mark       // this call's states, a chain of single successors then a branching one
		fresh := 0             // states since the last branching one
		mine := 0              // this call's states with a timer pending
		var solo *vm.SoloChain // a parallel subtest this call runs alone to its end, with its group (soloPick)
		// own: nothing but this call holds s (not the search's initial
		// state, which every round starts from): a single successor may
		// be made in it (stepInPlace)
		own := s != root
		defer func() {
			pending -= mine
			for i := len(marks) - 1; i >= 0; i-- {
				m := marks[i]
				if e := onPath[m.key.h]; e.n > 1 {
					onPath[m.key.h] = onPathEntry{e.n - 1, e.at}
				} else {
					delete(onPath, m.key.h)
				}
				if stopped || out.found != nil { // not explored to the end
					if m.seen {
						visited[m.key] = m.prev
					} else {
						delete(visited, m.key)
					}
				}
			}
		}()
		for {
			if out.found != nil || stopped {
				return
			}
			if se.stop(p.depth) || bs.rb.over(se) {
				stopped = true
				return
			}
			choices := s.Choices()
			single := len(choices) == 1 // (never a preemption: last is -1 or its goroutine)
			last := preemptible(s, choices)
			only := 0 // the choice a single successor takes
			forced := false
			if solo != nil {
				if i, ok := solo.Next(s, choices); ok {
					single, only = true, i
				} else {
					solo = nil // it ended
				}
			}
			if !single && solo == nil {
				if c, i, ok := se.soloPick(s, choices, last, bs.soloNo); ok {
					solo, single, only = c, true, i
				}
			}
			if !single && last >= 0 && used >= k {
				// the bound is used up: only the goroutine that ran last
				// and the timers may go on; when that leaves one
				// choice, the state is a link of a chain as a single
				// successor's is (bound 0 is mostly such links: a path
				// of 70,000 of them kept 900 MB of states on the
				// stack of a long test)
				if i, ok := onlyUnpreempted(choices, last); ok {
					single, only, forced = true, i, true
					out.pruned = true
				}
			}
			succ := len(choices)
			if single {
				succ = 1
			}
			var twins []bool // choices left out as a twin's (symmetric.go)
			look := fresh
			counted := forced && fresh < chainFresh && bs.pay.look()
			if forced && !counted {
				// a link of a chain the bound forces (the goroutine
				// that ran last goes on until it blocks, yields or
				// ends), when such lookups do not pay (forcedPay), is
				// looked up only at depths that are multiples of
				// chainSample, not as the first states after a
				// branching one are (lookUp): two paths that order the
				// same goroutines differently meet at the free switch
				// that ends such a chain, which is looked up, and two
				// that meet inside it run on together at most
				// chainSample states before a lookup merges them
				look = chainFresh
			}
			if lookUp(succ, p.depth, look) {
				key := boundKey{s.Hash(), -1}
				if last >= 0 {
					key.last = s.GoRank(last) // as the hash names goroutines
				}
				prev, seen := visited[key]
				bs.lookups++
				if counted {
					bs.pay.counted(seen && prev <= used)
				}
				if !(seen && prev <= used) && !single {
					// twins: the goroutines a switch to is free or within
					// the bound, but not the one that ran last
					twins = se.twinSkips(s, choices, func(g int) bool { return g != last && (last < 0 || used < k) })
				}
				s.DropRanks(keptChoices) // (not needed again)
				if seen && prev <= used {
					// a back edge closing a cycle with a timer pending
					// anywhere on it: a spin that fires the timer may
					// be cut (cutCycle)
					if e, on := onPath[key.h]; on && (s.TimersPending() || pending > e.at) {
						out.inexact = true
					}
					return
				}
				visited[key] = used
				e, on := onPath[key.h]
				if !on {
					e.at = pending
				}
				e.n++
				onPath[key.h] = e
				marks = append(marks, mark{key, prev, seen})
			}
			if s.TimersPending() {
				pending++
				mine++
			}
			if p.depth >= se.cfg.MaxDepth {
				stopped, out.depth = true, true
				return
			}
			if single {
				// no choice: go on in this call (the state is dropped,
				// no snapshot is kept for a backtrack that cannot come:
				// the transition is made in it)
				n := se.stepLink(s, only, own)
				own = true
				p = p.child(only)
				if isError(n) {
					out.found, out.path = n, p
					return
				}
				s = n
				fresh++
				continue
			}
			for i, nc := 0, len(choices); i < nc; i++ {
				if twins != nil && twins[i] {
					continue
				}
				if choices == nil {
					choices = s.Choices() // (released below)
				}
				c := choices[i]
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
				choices = release(s, choices)
				explore(n, np, nu)
				if out.found != nil || stopped {
					return
				}
				se.stats.Backtracks++
			}
			return
		}
	}
	explore(root, &pathNode{}, 0)
	out.complete = !stopped && out.found == nil && !out.inexact
}

// cutCycle is the rule by which a search that merges states by hash
// keeps its claims under the default time model. A goroutine that spins
// lets the earliest pending timer fire once its probes find it back in a
// state it was in (vm/time.go); the probes' records are not hashed, so
// merging two states that differ in them could cut the firing. A firing
// needs the execution to return to a state it was in: a cycle of the
// state graph. A depth-first search that explores every edge of a cycle
// meets at least one of them as a back edge, to a state on its current
// path; so only a merge with a state on the path (a back edge) while a
// timer is pending on the cycle it closes can cut a firing, and only that
// merge withdraws the claim (the cycle's states are checked for timers
// one by one: the search looks only some of them up, lookUp). A merge with a state whose subtree was explored before (a cross
// edge) cuts nothing the earlier visit did not explore: every cycle
// below it was met there.

// boundRun is the state of an iterated bounded search across rounds of a
// check: the bound it works on, the highest bound completed, and whether
// the space is exhausted.
type boundRun struct {
	k         int          // the bound being searched
	done      int          // the highest bound completed; -1 none
	exhausted bool         // every schedule explored
	fullDone  bool         // the full sleep-set search ended or can claim nothing (depth cut, timer merged)
	stuck     bool         // the bounded search ran out of depth (it cannot complete)
	cur       *boundSearch // the search at bound k, resumed from round to round
	full      resumable    // the full sleep-set search, resumed from round to round
	fullRes   Result       // its result once it ended
	// the time each search took in the rounds so far: the full search's
	// quarter of a round is one of the time (fullTurn)
	fullTime, boundTime time.Duration
}

func newBoundRun() *boundRun { return &boundRun{done: -1} }

// close ends the paused searches (their coroutines).
func (br *boundRun) close() {
	br.full.close()
	if br.cur != nil {
		br.cur.rb.close()
	}
}

// round spends about budget states: a quarter on the full sleep-set search
// (which, when it finishes, exhausts the space), the rest on the bounded
// search at the current bound, going on to the next bound whenever one
// completes; before bound 0 is complete, a round where the full search
// has had more than a quarter of the time so far gives its states to the
// bounded search (fullTurn).
// Both searches go on from where the last round paused them.
// It returns an error result when either search finds one.
func (br *boundRun) round(se *searcher, root *vm.State, budget int) (Result, bool) {
	return br.roundSplit(se, root, max(budget/4, 1), budget-budget/4)
}

// roundSplit is a round with full states for the full search and bounded
// for the bounded search (all of them when the full search no longer
// runs).
func (br *boundRun) roundSplit(se *searcher, root *vm.State, full, bounded int) (Result, bool) {
	if isError(root) {
		return se.result(VerdictError, root, &pathNode{}), true
	}
	if br.exhausted {
		return Result{}, false
	}
	if !br.fullDone && !br.fullTurn() {
		bounded += full
	} else if !br.fullDone {
		t := time.Now()
		ended := br.full.run(se, full, func() { br.fullRes = se.exhaustiveRun(root, &br.full) })
		br.fullTime += time.Since(t)
		if ended {
			switch br.fullRes.Verdict {
			case VerdictError:
				return br.fullRes, true
			case VerdictNoError:
				br.exhausted = true
				return Result{}, false
			}
			br.fullDone = true // stopped by time, or cut
		} else if se.bounded {
			// a depth cut or a merged state with a pending timer: it can
			// claim nothing any more (the flag stays set until it ends)
			br.fullDone = true
			br.full.close()
		}
	}
	if br.stuck {
		return Result{}, false
	}
	if br.fullDone {
		bounded += full // the full search no longer runs
	}
	t := time.Now()
	defer func() { br.boundTime += time.Since(t) }()
	return br.boundedShare(se, root, bounded)
}

// fullTurn reports whether the full sleep-set search takes its part of
// a round: always once bound 0 is complete (a verdict is there; the full
// search is the one that exhausts a small space: x/sync's singleflight
// TestPanicErrorUnwrap, 187 states whose runs panic and recover, needed
// its quarter of every round), before that unless it has had more than a
// quarter of the two searches' time so far. Its states cost more than the
// bounded search's (a hash and a sleep set each, where most of bound 0's
// states are links of a chain): shared by states, it took half the time
// of x/sync's semaphore TestWeighted, whose bound 0 then did not complete
// in 10 s. When the bounded search can no longer complete (stuck), the
// full search is all there is and runs every round.
func (br *boundRun) fullTurn() bool {
	return br.done >= 0 || br.stuck || br.boundTime == 0 || 3*br.fullTime <= br.boundTime
}

// boundedShare runs the bounded search for about share states, going on
// to the next bound whenever one completes.
func (br *boundRun) boundedShare(se *searcher, root *vm.State, share int) (Result, bool) {
	start := se.stats.States
	for left := share; left > 0; left = share - (se.stats.States - start) {
		if br.cur == nil || br.cur.k != br.k {
			br.cur = newBoundSearch(br.k)
		}
		o := se.resumeBounded(root, br.cur, left)
		if o.found != nil {
			return se.result(VerdictError, o.found, o.path), true
		}
		if o.depth || o.inexact {
			br.stuck = true
			br.cur.rb.close()
			break
		}
		if !o.complete {
			break
		}
		if !o.pruned {
			br.exhausted = true
			break
		}
		br.done = br.k
		debugBoundDone(br.k, time.Since(se.start), se.stats.States)
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
	defer br.close()
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

// soloPick returns the chain of a parallel subtest of s that can run
// alone to its end first (vm.Machine.Solo; with the subtests it runs: its
// group) and the index of its first choice, when switching to
// it is free (last < 0: the goroutine that ran last blocked, yielded or
// ended) or it ran last. Every execution from s is then equivalent to
// one that runs it alone first: the same errors, a race reported in
// either, and no more preemptions (its life moved to the front needs
// none, and the rest of the execution without it needs no more than
// before). Its whole life is then a chain of single successors, and the
// 2^N subsets of finished subtests of a table of N independent parallel
// leaves are N chains.
func (se *searcher) soloPick(s *vm.State, choices []vm.Choice, last int, no map[int]bool) (*vm.SoloChain, int, bool) {
	if last >= 0 && !s.SoloCandidate(last) {
		return nil, 0, false // (the common case, checked once)
	}
	for _, c := range choices {
		if c.Kind != vm.ChooseGoroutine || last >= 0 && c.G != last || no[c.G] || !s.SoloCandidate(c.G) {
			continue
		}
		if ok, _ := se.m.Solo(s, c.G, se.deadline()); ok {
			chain := vm.NewSoloChain(s, c.G)
			if i, ok := chain.Next(s, choices); ok {
				return chain, i, true
			}
		}
		no[c.G] = true
	}
	return nil, 0, false
}
