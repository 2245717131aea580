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
