package vm

import "github.com/gmc-go/gmc/vm/loc"

// The event log of a run, for predictive analyses (guide/predict.go): with
// a RunObserver attached to a state (State.SetRunObserver), every run from
// that state logs the events the race detector sees — each checked memory
// access and each point where it joins vector clocks (race.go,
// race_chan.go) — and, when the run ends (the program exits or fails),
// hands the observer the whole sequence. A lock operation (Mutex,
// RWMutex) is logged as what it is, EvLock or EvUnlock, not as the
// release and acquire of its semaphore: a predictive analysis may reorder
// critical sections, which happens-before cannot. Every other
// synchronization (channels, atomics, WaitGroup, Once, Cond, go
// statements, timers) is logged as the hard ordering it is.
//
// The log is a chain of per-transition chunks, shared by the states of a
// search as their heaps are: a state extends its parent's chain, never
// modifies it. Events of the standard library's atomically run code are
// logged as the race detector checks them: accesses only at the top level
// of a transition, synchronizations everywhere.

// EventKind classifies a logged event.
type EventKind uint8

const (
	// EvRead: goroutine G read N cells at Obj/Off, at At.
	EvRead EventKind = iota + 1
	// EvWrite: G wrote N cells at Obj/Off.
	EvWrite
	// EvAtomicRead: G read the cell at Obj/Off atomically.
	EvAtomicRead
	// EvAtomicWrite: G wrote it atomically (a read-modify-write too).
	EvAtomicWrite
	// EvLock: G acquired the lock at Obj/Off in Mode (Lock, RLock,
	// TryLock that succeeded).
	EvLock
	// EvUnlock: G released the lock at Obj/Off in Mode (possibly one
	// another goroutine holds: Go allows it).
	EvUnlock
	// EvRelease: G released the synchronization address Obj/Off: the
	// EvAcquire of it that follows is ordered after (WaitGroup.Done, Once,
	// atomics, close of a channel, sync.Map/Pool).
	EvRelease
	// EvAcquire: G acquired the synchronization address Obj/Off.
	EvAcquire
	// EvSlot: G acquired and released buffer slot Off of channel Obj
	// (every channel operation on it: a send before its receive, the kth
	// receive before the (k+C)th send completes).
	EvSlot
	// EvWake: G's past is ordered before goroutine Peer's future (a
	// Cond.Signal waking a Wait).
	EvWake
	// EvGo: G started goroutine Peer.
	EvGo
	// EvTimerSet: G set the timer Obj (its firing is ordered after).
	EvTimerSet
	// EvTimerFire: the timer Obj fired; the runtime's pseudo-goroutine
	// (G 0) acts with the clock the timer carries until the next firing.
	EvTimerFire
)

// Event is one logged event (see EventKind for the fields each kind sets).
type Event struct {
	Kind EventKind
	Mode LockMode
	G    int32
	Peer int32
	N    int32
	Obj  ObjID
	Off  int32
	At   loc.Loc
}

// RunObserver receives the event log of every run from the state it is
// attached to, when the run ends (the program exited or failed: err) and
// at checkpoints of a long run (err nil: the log so far, see runEnded).
type RunObserver interface {
	RunEnded(log EventLog, err *Error)
}

// EventLog is the event log of a run (immutable).
type EventLog struct{ c *eventChunk }

// Len is the number of events logged.
func (l EventLog) Len() int {
	if l.c == nil {
		return 0
	}
	return l.c.total
}

// Events returns the events, oldest first (a new slice, the caller's).
func (l EventLog) Events() []Event {
	if l.c == nil {
		return nil
	}
	out := make([]Event, l.c.total)
	i := len(out)
	for c := l.c; c != nil; c = c.prev {
		i -= len(c.evs)
		copy(out[i:], c.evs)
	}
	return out[i:]
}

// AppendEvents appends the events, oldest first, to buf and returns it.
func (l EventLog) AppendEvents(buf []Event) []Event {
	if l.c == nil {
		return buf
	}
	n := len(buf)
	buf = append(buf, make([]Event, l.c.total)...)
	i := len(buf)
	for c := l.c; c != nil; c = c.prev {
		i -= len(c.evs)
		copy(buf[i:], c.evs)
	}
	return append(buf[:n], buf[i:]...)
}

// Backward calls f with each event, newest first, until f returns false
// (f must not keep or modify the event).
func (l EventLog) Backward(f func(*Event) bool) {
	for c := l.c; c != nil; c = c.prev {
		for i := len(c.evs) - 1; i >= 0; i-- {
			if !f(&c.evs[i]) {
				return
			}
		}
	}
}

// maxRunEvents bounds the log of one run: later events are not logged (a
// prefix of a run is a run, which an analysis may still reorder).
const maxRunEvents = 1 << 17

// eventChunk is the events of one transition, after those of prev.
type eventChunk struct {
	prev  *eventChunk
	evs   []Event
	total int // events in the chain up to and including this chunk
	// buf holds the first events (most transitions log a few: one
	// allocation for the chunk and them)
	buf [3]Event
}

// SetRunObserver attaches o to s: every run from s logs its events and
// hands them to o when it ends. Call it on an initial state.
func (s *State) SetRunObserver(o RunObserver) { s.runObs = o }

// logEvent appends e to the running transition's log.
func (t *thread) logEvent(e Event) {
	s := t.s
	if s.runObs == nil || s.race == nil {
		return
	}
	if !s.evOwn {
		total := 0
		if s.evlog != nil {
			total = s.evlog.total
		}
		if total >= maxRunEvents {
			return
		}
		c := &eventChunk{prev: s.evlog, total: total}
		c.evs = c.buf[:0]
		s.evlog, s.evOwn = c, true
	}
	c := s.evlog
	if c.total >= maxRunEvents {
		return
	}
	c.evs = append(c.evs, e)
	c.total++
}

// logSync logs a synchronization of goroutine g (0: the running one).
func (t *thread) logSync(k EventKind, g int, p Pointer, peer int) {
	if t.s.runObs == nil {
		return
	}
	if g == 0 && t.g != nil {
		g = t.g.id
	}
	t.logEvent(Event{Kind: k, G: int32(g), Peer: int32(peer), Obj: p.Obj, Off: p.Off})
}

// logLock logs a lock operation of the running goroutine.
func (t *thread) logLock(k EventKind, p Pointer, mode LockMode) {
	if t.s.runObs == nil || t.g == nil {
		return
	}
	t.logEvent(Event{Kind: k, Mode: mode, G: int32(t.g.id), Obj: p.Obj, Off: p.Off, At: t.g.loc()})
}

// logAccess logs an access of the running goroutine (race.go: only one
// the race detector checks, and not while the goroutine runs alone).
func (t *thread) logAccess(p Pointer, n int, write, atomic bool, at loc.Loc) {
	k := EvRead
	switch {
	case atomic && write:
		k = EvAtomicWrite
	case atomic:
		k = EvAtomicRead
	case write:
		k = EvWrite
	}
	t.logEvent(Event{Kind: k, G: int32(t.g.id), N: int32(max(n, 1)), Obj: p.Obj, Off: p.Off, At: at})
}

// raceLockWord is the race detector's access of a Mutex's or RWMutex's
// state word at p (atomic when write: the CompareAndSwap of m.state;
// RWMutex reads it plainly). It is no event of the log: the lock
// operation is (EvLock, EvUnlock), and two critical sections must not
// look conflicting because they locked the same lock.
func (t *thread) raceLockWord(p Pointer, write bool) {
	t.unlogged = true
	t.raceAccessKind(t.g.top, p, 1, write, write)
	t.unlogged = false
}

// runEnded hands the run's log to the observer when the run is over, or
// when its log reached a checkpoint in the transition from parent: a
// power of two of events from logCheckpoint on (a run that a search
// never ends — a long test, a depth bound — is analyzed by its prefixes).
// pf, when the transition ran in the parent itself (StepAmongInPlace), holds
// the parent's log length instead (parent is then nil).
func (s *State) runEnded(parent *State, pf *parentFacts) {
	if s.runObs == nil || s.evlog == nil {
		return
	}
	if s.exited || s.err != nil {
		s.runObs.RunEnded(EventLog{s.evlog}, s.err)
		return
	}
	before := pf.loggedIn(parent)
	now := s.evlog.total
	for c := logCheckpoint; c <= now; c *= 2 {
		if before < c {
			s.runObs.RunEnded(EventLog{s.evlog}, nil)
			return
		}
	}
}

// logCheckpoint is the first checkpoint of a run's log (see runEnded).
const logCheckpoint = 1 << 10

// raceLockAcquire is the acquire of a lock's semaphores sems (the lock's
// own address for a Mutex; readerSem and writerSem for RWMutex) by the
// running goroutine, logged as the lock acquisition it is.
func (t *thread) raceLockAcquire(lock Pointer, mode LockMode, sems ...Pointer) {
	for _, p := range sems {
		t.raceJoin(p)
	}
	t.logLock(EvLock, lock, mode)
}

// raceLockRelease is the release of a lock's semaphore sem, logged as the
// unlock it is.
func (t *thread) raceLockRelease(lock Pointer, mode LockMode, sem Pointer) {
	t.raceMerge(sem)
	t.logLock(EvUnlock, lock, mode)
}
