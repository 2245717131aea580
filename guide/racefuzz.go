package guide

import (
	"go/token"
	"math/rand/v2"

	"github.com/gmc-go/gmc/vm"
	"github.com/gmc-go/gmc/vm/loc"
)

// Race-directed random walks (RaceFuzzer: Sen, PLDI 2008). A race the
// predictive monitor predicts (predict.go) names two accesses no
// synchronization a reordering keeps orders, but the run that showed them
// ordered them through a lock or a channel, and a random walk, which
// reorders at random, may take many runs to put them side by side. Once a
// prediction is made, the next runs of a random walk (gmc check --strategy
// random, and the plain walk of a guided check's fallback) are steered
// toward it, one prediction per run, in turn: a goroutine about to take
// one of the two accesses is postponed — left out of the walk's draw —
// until another goroutine stands at the other access; then the two run
// one after the other, with no synchronization between them, and the
// happens-before detector sees whether they race. When every goroutine
// the walk could run is postponed, one of them, drawn at random, goes on
// (a steered run never stops the program). Every steered run is a run of
// the program: its race, if any, is an executed one, reported and
// replayed as any other, and a prediction is still never reported as
// such. Each prediction steers at most steerRunsPer runs; after them, and
// before any prediction, the walk draws as it always did.
//
// A goroutine stands at an access when its next instruction is on the
// access's line (the scheduling point before a shared access is at the
// access; the line is what the prediction and the race report share).

// steerRunsPer bounds the runs one prediction steers.
const steerRunsPer = 8

// raceSteer steers the runs of one walk (see above).
type raceSteer struct {
	mon  *LockGraph
	fset *token.FileSet
	// targets are the race predictions taken so far, in the order made;
	// seen is how many of the monitor's race predictions they are
	targets []*steerTarget
	seen    int
	turn    int          // the next target to steer a run (round robin)
	cur     *steerTarget // the target of the run under way (nil: a plain run)
	// postponed are the goroutines held at an access of cur; then is the
	// goroutine to run next (the partner of a pair just put side by
	// side), 0 when none
	postponed []int
	then      int
	// sides caches the side of each location for cur (sideA, sideB)
	sides map[loc.Loc]uint8
	// Steered counts the runs steered (debug figures)
	steered int
}

// steerTarget is a predicted race and the runs it has steered.
type steerTarget struct {
	p    *RacePrediction
	a, b token.Position
	runs int
}

// The sides of a location: on the line of the prediction's first access,
// of its second, or both (the same line).
const (
	sideA uint8 = 1 << iota
	sideB
	sideKnown // the cache's mark: the side was computed
)

// newRaceSteer returns the steering of a walk on m observed by locks, or
// nil when no predictive monitor observes it.
func newRaceSteer(m *vm.Machine, locks vm.LockObserver) *raceSteer {
	lg, ok := locks.(*LockGraph)
	if !ok || lg == nil || !lg.predicting {
		return nil
	}
	return &raceSteer{mon: lg, fset: m.Fset()}
}

// startRun picks the target of the run that starts (none when no
// prediction has runs left).
func (st *raceSteer) startRun() {
	if st == nil {
		return
	}
	st.postponed, st.then, st.cur = st.postponed[:0], 0, nil
	for _, p := range st.mon.racePredictions(st.seen) {
		st.seen++
		st.targets = append(st.targets, &steerTarget{p: p, a: st.fset.Position(p.First.At.Pos()), b: st.fset.Position(p.Second.At.Pos())})
	}
	for range st.targets {
		t := st.targets[st.turn%len(st.targets)]
		st.turn++
		if t.runs < steerRunsPer {
			t.runs++
			st.cur = t
			st.sides = map[loc.Loc]uint8{}
			st.steered++
			return
		}
	}
}

// active reports whether the run under way is steered.
func (st *raceSteer) active() bool { return st != nil && st.cur != nil }

// side returns the sides of the prediction whose line c's goroutine
// stands at (0: neither).
func (st *raceSteer) side(c vm.Choice) uint8 {
	if c.Kind != vm.ChooseGoroutine || c.Loc.Fn == nil {
		return 0
	}
	s, ok := st.sides[c.Loc]
	if !ok {
		s = sideKnown
		p := st.fset.Position(c.Loc.Pos())
		if p.IsValid() {
			if p.Filename == st.cur.a.Filename && p.Line == st.cur.a.Line {
				s |= sideA
			}
			if p.Filename == st.cur.b.Filename && p.Line == st.cur.b.Line {
				s |= sideB
			}
		}
		st.sides[c.Loc] = s
	}
	return s &^ sideKnown
}

// partnerOf returns the sides a partner of a goroutine at side s stands
// at: the other access.
func partnerOf(s uint8) uint8 { return (s&sideA)<<1 | (s&sideB)>>1 }

// pick returns the choice of s the steered run takes (see the top of the
// file).
func (st *raceSteer) pick(s *vm.State, rng *rand.Rand) int {
	cs := s.Choices()
	if st.then != 0 {
		g := st.then
		st.then = 0
		for j, c := range cs {
			if c.G == g && c.Kind == vm.ChooseGoroutine {
				return j
			}
		}
	}
	free := make([]int, 0, len(cs))
	for {
		free = free[:0]
		for j, c := range cs {
			if c.Kind == vm.ChooseTimer || !st.isPostponed(c.G) {
				free = append(free, j)
			}
		}
		if len(free) == 0 {
			// every goroutine that could run is held: one goes on
			j := rng.IntN(len(cs))
			st.release(cs[j].G)
			return j
		}
		j := free[rng.IntN(len(free))]
		c := cs[j]
		sd := st.side(c)
		if sd == 0 {
			return j
		}
		want := partnerOf(sd)
		for _, pc := range cs {
			if pc.G != c.G && st.isPostponed(pc.G) && st.side(pc)&want != 0 {
				// the pair side by side: c's access, then its partner's
				st.release(pc.G)
				st.then = pc.G
				return j
			}
		}
		st.postponed = append(st.postponed, c.G)
	}
}

func (st *raceSteer) isPostponed(g int) bool {
	for _, x := range st.postponed {
		if x == g {
			return true
		}
	}
	return false
}

func (st *raceSteer) release(g int) {
	for i, x := range st.postponed {
		if x == g {
			st.postponed = append(st.postponed[:i], st.postponed[i+1:]...)
			return
		}
	}
}

// racePredictions returns the race predictions after the first from of
// them.
func (lg *LockGraph) racePredictions(from int) []*RacePrediction {
	lg.mu.Lock()
	defer lg.mu.Unlock()
	var out []*RacePrediction
	n := 0
	for _, p := range lg.preds {
		if p.Race == nil {
			continue
		}
		if n >= from {
			out = append(out, p.Race)
		}
		n++
	}
	return out
}
