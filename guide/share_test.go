package guide

import (
	"testing"
	"time"
)

// TestTurnSlice: a turn between trace sets makes up what the bounded
// search is behind its share, at its rate, once that is at least minTurn.
func TestTurnSlice(t *testing.T) {
	limit := 10 * time.Second // minTurn: 250 ms
	for _, c := range []struct {
		share           float64
		elapsed, exTime time.Duration
		exStates, want  int
	}{
		// a third of 6 s is 2 s; 1 s so far at 10,000 states/s: 1.5 s
		// more brings it to 2.5 of 7.5 s
		{1.0 / 3, 6 * time.Second, time.Second, 10000, 15000},
		// 0.2 s behind (0.3 s to make up): a turn
		{1.0 / 3, 6 * time.Second, 1800 * time.Millisecond, 18000, 3000},
		// 0.1 s behind (0.15 s to make up): too little for a turn
		{1.0 / 3, 6 * time.Second, 1900 * time.Millisecond, 19000, 0},
		{1.0 / 3, 6 * time.Second, 3 * time.Second, 30000, 0}, // ahead
		{1.0 / 3, 6 * time.Second, 0, 0, 0},                   // no turn yet: no rate
		{0.75, 8 * time.Second, 2 * time.Second, 20000, 160000},
	} {
		got := turnSlice(c.share, c.elapsed, c.exTime, c.exStates, limit)
		// (float rounding: within a state)
		if got < c.want-1 || got > c.want+1 {
			t.Errorf("turnSlice(%.2f, %v, %v, %d) = %d, want %d", c.share, c.elapsed, c.exTime, c.exStates, got, c.want)
		}
	}
	if got := minTurn(0); got != 20*time.Millisecond {
		t.Errorf("minTurn without a limit = %v, want 20ms", got)
	}
}

// TestFullTurn: the full sleep-set search takes its part of a round while
// it has had at most a quarter of the two searches' time, and every round
// once bound 0 is complete or the bounded search is stuck.
func TestFullTurn(t *testing.T) {
	for i, c := range []struct {
		full, bound time.Duration
		stuck, want bool
	}{
		{0, 0, false, true}, // the first round
		{time.Second, 0, false, true},
		{time.Second, 3 * time.Second, false, true},
		{time.Second, 2 * time.Second, false, false},
		{time.Second, 2 * time.Second, true, true},
		{time.Second, 2 * time.Second, false, true}, // bound 0 complete (done below)
	} {
		br := newBoundRun()
		br.fullTime, br.boundTime, br.stuck = c.full, c.bound, c.stuck
		if i == 5 {
			br.done = 0
		}
		if got := br.fullTurn(); got != c.want {
			t.Errorf("fullTurn with %v full, %v bounded, stuck %v = %v, want %v", c.full, c.bound, c.stuck, got, c.want)
		}
	}
}

// TestTurnCap: a turn gets its states at a millisecond each, at most a
// sixteenth of the time limit doubled each round, at least 20 ms, and no
// cap without a time limit; behind is what brings a share up to date.
func TestTurnCap(t *testing.T) {
	limit := 16 * time.Second
	for _, c := range []struct {
		states, round int
		limit, want   time.Duration
	}{
		{500, 0, limit, 500 * time.Millisecond},
		{5000, 0, limit, time.Second},     // a sixteenth of the limit
		{5000, 2, limit, 4 * time.Second}, // doubled twice
		{5000, 3, limit, 5 * time.Second}, // the states' time again
		{3, 0, limit, 20 * time.Millisecond},
		{5000, 0, 0, 0},
		{5000, 100, limit, 5 * time.Second}, // (no overflow)
	} {
		if got := turnCap(c.states, c.round, c.limit); got != c.want {
			t.Errorf("turnCap(%d, %d, %v) = %v, want %v", c.states, c.round, c.limit, got, c.want)
		}
	}
	// a third of 6 s is 2 s: 1 s so far, 1.5 s more brings it to 2.5 of 7.5
	if got := behind(1.0/3, 6*time.Second, time.Second); got < 1499*time.Millisecond || got > 1501*time.Millisecond {
		t.Errorf("behind = %v, want 1.5s", got)
	}
	if got := behind(1.0/3, 6*time.Second, 3*time.Second); got != 0 {
		t.Errorf("behind when ahead = %v, want 0", got)
	}
}

// TestCorePause: beside a bounded search on a core of its own, the other
// side pauses as long as it ran, from a quarter of the time limit on, and
// never without a time limit.
func TestCorePause(t *testing.T) {
	limit := 10 * time.Second
	for _, c := range []struct {
		limit, elapsed, worked, want time.Duration
	}{
		{limit, 2 * time.Second, time.Second, 0},
		{limit, 2500 * time.Millisecond, 300 * time.Millisecond, 300 * time.Millisecond},
		{limit, 9 * time.Second, time.Second, time.Second},
		{0, time.Minute, time.Second, 0},
	} {
		if got := corePause(c.limit, c.elapsed, c.worked); got != c.want {
			t.Errorf("corePause(%v, %v, %v) = %v, want %v", c.limit, c.elapsed, c.worked, got, c.want)
		}
	}
}
