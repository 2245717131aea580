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

// The portfolio's turns are bounded by states (a round's budget) so that a
// check's outcome does not depend on the load; but where states are slow
// (a test of a thousand goroutines: milliseconds a state, most of it the
// state's hash) a turn of the bounded search or of the trace sets would
// take the whole time limit and the fallback's walks, which find what the
// others reach late, would get none (alitto/pond#105: round 0 of the
// bounded search took 56 s of 60). So each turn is also bounded by time,
// turnCap: its states at slowState each (a state of the benchmark suite
// costs tens of microseconds, so its turns end by their states as before),
// and at most roundTime of its round.

// slowState is the time a turn of the portfolio gives each state of its
// budget (turnCap).
const slowState = time.Millisecond

// turnCap is the longest time a turn of states states takes in round
// round of a check with time limit limit: the states at slowState each,
// at most roundTime(round, limit), at least 20 ms; 0 (no cap) without a
// time limit.
func turnCap(states, round int, limit time.Duration) time.Duration {
	if limit <= 0 {
		return 0
	}
	c := min(time.Duration(states)*slowState, roundTime(round, limit))
	return max(c, 20*time.Millisecond)
}

// roundTime is the most a turn of round round may take: a sixteenth of
// the time limit, doubled each round (as the rounds' budgets of states
// are), so that the three searches of a round all get their turn within
// the first quarter of the time limit however slow its states.
func roundTime(round int, limit time.Duration) time.Duration {
	return limit / 16 << min(round, 16)
}

// behind is the time the bounded search needs to bring its part of the
// time so far to share (0: it has its share).
func behind(share float64, elapsed, exTime time.Duration) time.Duration {
	if share >= 1 {
		return 0
	}
	return max(time.Duration((share*float64(elapsed)-float64(exTime))/(1-share)), 0)
}

// walkShare is the least share of the time the fallback's random walks
// get in a check with a time limit (runTrial's walkUp): where states are
// cheap the walks at the end of each round have it, where they are slow
// the walks take turns between the others' (alitto/pond#105's race with
// a hundred submitters: found by the walks in 4,000 states, not by the
// bounded search in a minute).
const walkShare = 1.0 / 6

// minSetTime is the least time a trace set gets in a round whose sets'
// time turnCap bounds.
const minSetTime = 20 * time.Millisecond

// corePause is how long the guided search and the walks pause, between
// their turns, beside a bounded search on a core of its own (boundedcore.go)
// once a quarter of the time limit has gone: as long as they ran since
// their last pause (worked), so that from then on the bounded search runs
// alone half of the time. The two sides share the machine's memory and the
// collector: beside the walks, the bounded search of errgroup's
// TestGoLimit (1,025 workers, bound 0 about 430,000 states) made its
// states about 35 % slower than alone (bound 0 after 7.3–7.6 s of a 10 s
// limit, 5.0–5.6 s alone; with the pauses 6.3–6.6 s). The bounded search
// is the one whose verdict can be definite; the bugs the others find,
// they find early (benchmarks/RESULTS.md, "Session 12: the portfolio's
// late share") and, stepping their runs in place, as fast as they did
// without pauses.
func corePause(limit, elapsed, worked time.Duration) time.Duration {
	if limit <= 0 || elapsed < limit/4 {
		return 0
	}
	return worked
}
