package vm

import (
	"sync/atomic"

	"github.com/gmc-go/gmc/vm/loc"
)

// The lock monitor's view of a run: with a LockObserver attached to a
// state (State.SetLockObserver), every run from that state tells it each
// lock acquisition together with the locks the acquiring goroutine holds
// at that moment, the goroutine's count of earlier acquisitions, and the
// points where its ancestors started it. An observer builds the lock graph
// of Havelund's GoodLock from these (guide/lockgraph.go); the VM only
// keeps, per goroutine, what it holds.
//
// What counts as a lock:
//
//	sync.Mutex               Lock, TryLock (write); Unlock releases
//	sync.RWMutex             Lock, TryLock (write); RLock, TryRLock (read);
//	                         Unlock, RUnlock release; Cond.Wait's relock
//	capacity-1 channel       a send into its empty buffer acquires it, and a
//	                         receive by the same goroutine releases it; or the
//	                         reverse (a receive of the token acquires, the send
//	                         that puts it back releases). A hold is a lock hold
//	                         only once its goroutine released it so (the
//	                         observer is told: Commit); a hold another
//	                         goroutine ends is a hand-off, never committed.
//
// A lock is named by its address (object and cell), which the runs of one
// search share as long as they allocate alike; the observer keeps the
// acquisitions' locations, which every run shares.

// LockMode is how a goroutine holds or acquires a lock.
type LockMode uint8

const (
	// LockWrite: Mutex.Lock, RWMutex.Lock (excludes every other holder).
	LockWrite LockMode = iota + 1
	// LockRead: RWMutex.RLock (excludes writers only).
	LockRead
	// LockChan: a capacity-1 channel used as a lock (excludes every other
	// holder).
	LockChan
)

// Excludes reports whether a holder in mode a keeps out an acquisition in
// mode b (only two readers do not exclude each other).
func (a LockMode) Excludes(b LockMode) bool { return !(a == LockRead && b == LockRead) }

// LockID names a lock: the object and cell of the Mutex or RWMutex, or
// the channel (Off 0).
type LockID struct {
	Obj ObjID
	Off int32
}

// HeldLock is one acquisition: the lock, its mode, where it happened, and
// the acquiring goroutine's count of earlier acquisitions (Seq). Token
// names a channel hold, for LockObserver.Commit.
type HeldLock struct {
	Lock  LockID
	Mode  LockMode
	At    loc.Loc
	Seq   int32
	Token uint64
}

// ForkPoint says that goroutine G started the next goroutine of a chain of
// ancestors after Seq acquisitions of its own: G's acquisitions numbered
// below Seq happen before everything its descendants through that start do.
type ForkPoint struct {
	G   int
	Seq int32
}

// LockAcquire is an acquisition reported to a LockObserver. Held and
// Forks are never modified after the call (an observer may keep them).
type LockAcquire struct {
	G    int
	Lock HeldLock
	// Held are the locks G holds, in the order it acquired them.
	Held []HeldLock
	// Forks is G's chain of starts, from the entry goroutine's start of
	// its first descendant down to G's own start.
	Forks []ForkPoint
	// Try: TryLock or TryRLock, which never blocks.
	Try bool
}

// LockObserver receives the lock acquisitions of every run from the state
// it is attached to. It may be called from the searches of one check in
// turn, never from two goroutines at once unless those share it.
type LockObserver interface {
	Acquire(a LockAcquire)
	// Commit says that the channel hold with this token was released by
	// its own goroutine: the channel served as a lock.
	Commit(token uint64)
}

// gLocks is a goroutine's part of the lock monitor (immutable).
type gLocks struct {
	held  []HeldLock
	seq   int32
	forks []ForkPoint
}

// lockTokens numbers channel holds (only distinctness matters).
var lockTokens atomic.Uint64

// SetLockObserver attaches o to s: every run from s reports its lock
// acquisitions to o. Call it on an initial state (Machine.Start).
func (s *State) SetLockObserver(o LockObserver) { s.lockObs = o }

// lockAcquired records that goroutine g (writable) acquired the lock at p.
func (t *thread) lockAcquired(g *goroutine, p Pointer, mode LockMode, try bool) {
	o := t.s.lockObs
	if o == nil || g == nil || g.id == 0 {
		return
	}
	var l gLocks
	if g.locks != nil {
		l = *g.locks
	}
	h := HeldLock{Lock: LockID{p.Obj, p.Off}, Mode: mode, At: g.loc(), Seq: l.seq}
	if mode == LockChan {
		h.Token = lockTokens.Add(1)
	}
	o.Acquire(LockAcquire{G: g.id, Lock: h, Held: l.held, Forks: l.forks, Try: try})
	l.held = append(l.held[:len(l.held):len(l.held)], h)
	l.seq++
	g.locks = &l
}

// lockReleased drops g's latest hold of the lock at p in mode (g
// writable) and returns it.
func lockReleased(g *goroutine, p Pointer, mode LockMode) (HeldLock, bool) {
	if g == nil || g.locks == nil {
		return HeldLock{}, false
	}
	id := LockID{p.Obj, p.Off}
	held := g.locks.held
	for i := len(held) - 1; i >= 0; i-- {
		if held[i].Lock == id && held[i].Mode == mode {
			l := *g.locks
			l.held = append(append([]HeldLock(nil), held[:i]...), held[i+1:]...)
			g.locks = &l
			return held[i], true
		}
	}
	return HeldLock{}, false
}

// holds reports whether held has the lock at p in mode.
func holds(held []HeldLock, p Pointer, mode LockMode) bool {
	id := LockID{p.Obj, p.Off}
	for _, h := range held {
		if h.Lock == id && h.Mode == mode {
			return true
		}
	}
	return false
}

// dropOtherHold drops the hold of the lock at p in mode of a goroutine
// other than except (Go lets any goroutine unlock a mutex; a
// channel's value taken by another goroutine is a hand-off).
func (t *thread) dropOtherHold(except *goroutine, p Pointer, mode LockMode) {
	for g := range t.s.gs.all() {
		if g != except && g.locks != nil && holds(g.locks.held, p, mode) {
			lockReleased(t.s.mutG(g.id), p, mode)
			return
		}
	}
}

// lockUnlocked records that the running goroutine unlocked the lock at p.
func (t *thread) lockUnlocked(p Pointer, mode LockMode) {
	if t.s.lockObs == nil || t.g.id == 0 {
		return
	}
	if _, ok := lockReleased(t.g, p, mode); !ok {
		t.dropOtherHold(t.g, p, mode)
	}
}

// chanLockOp records that goroutine g (writable) moved the one value of
// the capacity-1 channel obj: into its empty buffer (send) or out of its
// full one. The move releases g's own hold of the channel (the lock
// pattern, committed) or acquires the channel.
func (t *thread) chanLockOp(g *goroutine, obj ObjID) {
	if t.s.lockObs == nil || g == nil || g.id == 0 {
		return
	}
	p := Pointer{Obj: obj}
	if h, ok := lockReleased(g, p, LockChan); ok {
		t.s.lockObs.Commit(h.Token)
		return
	}
	t.dropOtherHold(g, p, LockChan)
	t.lockAcquired(g, p, LockChan, false)
}

// lockFork gives goroutine g, just started by the running goroutine, its
// chain of starts.
func (t *thread) lockFork(g *goroutine) {
	if t.s.lockObs == nil {
		return
	}
	var forks []ForkPoint
	var seq int32
	if t.g != nil && t.g.locks != nil {
		forks, seq = t.g.locks.forks, t.g.locks.seq
	}
	if t.g != nil && t.g.id != 0 {
		forks = append(forks[:len(forks):len(forks)], ForkPoint{G: t.g.id, Seq: seq})
	}
	g.locks = &gLocks{forks: forks}
}
