package guide

import "time"

// This file holds how the portfolio of gmc check (runTrial) shares the
// time between the guided search and the bounded exhaustive search.

// idleBoundedShare is the bounded search's share of the time (see
// runTrial) when the guided search has nothing to chase (nothingToChase):
// the random walks of the fallback are then the only other search, and
// they find what they find (GoKer's leaks without a target) within a
// quarter of the time as well as within two thirds, while the bounded
// search needs all it gets to complete a bound on a test whose bound 0 is
// long (x/sync's semaphore TestWeighted: two paths of 70,000 transitions).
const idleBoundedShare = 3.0 / 4

// lateShare reports whether a check has used half of its time limit:
// the bounded search then gets idleBoundedShare of the time. On the
// benchmark suite the guided search finds what it finds early (see
// benchmarks/RESULTS.md, "Session 12: the portfolio's late share"),
// while a passing test whose bound 0 is long needs more than a third of
// the time to get a verdict (x/sync's semaphore TestWeighted: bound 0 is
// two paths of 100,000 transitions, 5.3 s of CPU).
func lateShare(limit, elapsed time.Duration) bool {
	return limit > 0 && elapsed >= limit/2
}

// boundedSlice is the number of states the bounded search may take in a
// round where it has share of the time: the states it makes in the time
// that brings its part of the time so far to share (at the rate it has
// made states so far), so that a round is not cut short by the doubling
// state budget of the guided search's rounds.
func boundedSlice(share float64, elapsed, exTime time.Duration, exStates int) int {
	if exTime <= 0 || exStates <= 0 || share >= 1 {
		return 0
	}
	slice := (share*elapsed.Seconds() - exTime.Seconds()) / (1 - share)
	if slice <= 0 {
		return 0
	}
	return int(float64(exStates) / exTime.Seconds() * slice)
}

// turnSlice is the number of states of a turn the bounded search takes
// between the guided search's trace sets and walks (runTrial's catchUp):
// those of boundedSlice when they make up at least minTurn of the time
// (fewer are left for later: a turn has a cost of its own, and the next
// set takes a fraction of a second), else 0. Before the bounded search
// has had a turn there is no rate to count states by, and none is given.
func turnSlice(share float64, elapsed, exTime time.Duration, exStates int, limit time.Duration) int {
	if exTime <= 0 || exStates <= 0 || share >= 1 {
		return 0
	}
	behind := (share*elapsed.Seconds() - exTime.Seconds()) / (1 - share)
	if behind < minTurn(limit).Seconds() {
		return 0
	}
	return boundedSlice(share, elapsed, exTime, exStates)
}

// minTurn is the least time a turn of the bounded search between trace
// sets makes up: a fortieth of the time limit (a quarter of a second of
// 10 s), at least 20 ms.
func minTurn(limit time.Duration) time.Duration {
	return max(limit/40, 20*time.Millisecond)
}
