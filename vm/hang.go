package vm

import "fmt"

// Hangs: the entry's goroutine blocked forever while the rest of the
// program only cycles — timers keep firing and waking goroutines that do
// their work and block again — is what go test reports, after ten minutes,
// as "test timed out"; it is neither a deadlock (something runs) nor a
// leak (the cycling goroutines keep the entry's wait reachable).
//
// Each time every goroutine is blocked and time must pass (settle), the
// state's hash without the clock (timers count by their time left) is
// remembered, until the entry's goroutine next takes a step, a state offers
// more than one choice (another schedule, or a select's other ready case,
// could go elsewhere) or the program reads the clock (time.Now, Since,
// Until, a log timestamp: code that acts on the time can end a cycle whose
// states look alike; a tick's value stays in the state, which then differs). When the same state comes back,
// the transitions between are the only future and repeat forever: every
// goroutine runs until it blocks, time passes, and the entry never moves
// again. A program that makes progress changes its state (a counter, a
// deadline coming closer) and is never reported; a hang that reads the
// clock or has choices in its cycle is missed, not misreported.

// idleMark is one remembered state (immutable list, newest first).
type idleMark struct {
	hash  uint64
	depth int
	n     int // marks in the list
	prev  *idleMark
}

// maxIdleMarks bounds the remembered states (a longer cycle is not seen).
const maxIdleMarks = 256

// hangs records the state before time passes with every goroutine
// blocked and reports a hang if it repeats one since the entry last moved.
func (s *State) hangs() bool {
	w := s.walkClock(s.m.hashRoots, clockLeft)
	h := w.h
	w.release()
	for m := s.idle; m != nil; m = m.prev {
		if m.hash == h {
			s.fail(s.hangError(m.depth))
			return true
		}
	}
	if s.idle == nil || s.idle.n < maxIdleMarks {
		n := 1
		if s.idle != nil {
			n = s.idle.n + 1
		}
		s.idle = &idleMark{hash: h, depth: s.depth, n: n, prev: s.idle}
	}
	return false
}

func (s *State) hangError(since int) *Error {
	e := s.deadlockError()
	e.Kind = KindHang
	entry := 0
	for g := range s.gs.all() {
		if g.entry {
			entry = g.id
		}
	}
	e.Msg = fmt.Sprintf("test hangs: goroutine %d (the entry) is blocked forever while the program cycles: the state after transition %d comes back after transition %d with only the clock advanced (go test: test timed out)", entry, since, s.depth)
	for _, gi := range e.Goroutines {
		if gi.ID == entry {
			e.Loc, e.Pos = gi.Loc, s.m.position(gi.Loc)
		}
	}
	return e
}

// readClock returns the virtual clock for the program to see; the states
// remembered for hang detection are forgotten (see above).
func (s *State) readClock() int64 {
	s.idle = nil
	return s.clock
}

// nowStep is the virtual time a reading of the clock costs when no time
// passed since the previous reading: about the cost of the vDSO clock read
// behind time.Now on amd64 Linux.
const nowStep = 10

// readNow is the clock as time.Now (and so Since and Until) reads it. Two
// readings of the monotonic clock separated by any work differ on every
// machine Go runs on, and code outside a synctest bubble relies on it (an
// item stored with a 1 ns TTL has expired at the next statement), so a run
// in which they are equal is not an execution of the program: a reading at
// the virtual time of the previous one first advances the clock by
// nowStep. Timers keep to the clock, so a timer still never fires before
// its duration has passed as the program measures it.
func (s *State) readNow() int64 {
	c := s.readClock()
	if s.nowReads == c+1 {
		s.clock += nowStep
		c = s.clock
	}
	s.nowReads = c + 1
	s.stepNowReads++
	return c
}
