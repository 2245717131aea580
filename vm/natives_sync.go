package vm

// Native models of package sync. They keep their state in the cells of the
// user's sync values (so copying and hashing work as for any struct):
//
//	Mutex:     cell 0 = 1 while locked
//	RWMutex:   cell 0 = 1 while a writer holds or waits for the lock (new
//	           readers block), cell 1 = that writer's goroutine id,
//	           cell 4 = number of active readers
//	WaitGroup: cell 0 = counter, cell 1 = number of goroutines in Wait
//	           (a waiter is woken when the counter reaches 0)
//	Once:      cell 0 = 1 when done, cell 1 = 1 while f runs
//	Cond:      cell 0 = L, cell 1 = queue of waiting goroutines (*condQueue)

import "go/types"

func ptrArg(v Value) Pointer { p, _ := v.(Pointer); return p }

func (t *thread) cell(p Pointer, i int32) Value {
	v := t.s.heap.get(p.Obj).cell(int(p.Off + i))
	if x, ok := v.(payloadVal); ok { // an atomic on an abstracted integer (payload.go)
		t.m.opts.Payload.violate(int(x.src))
	}
	return v
}

func (t *thread) setCell(p Pointer, i int32, v Value) {
	t.s.heap.mut(p.Obj, t.s.epoch).setCell(int(p.Off+i), v)
}

func (t *thread) nilSync(fr *frame, p Pointer) (bool, ctl) {
	if p.Obj == 0 {
		return true, t.runtimePanic(fr, "invalid memory address or nil pointer dereference")
	}
	return false, ctlNext
}

func lockGuard(t *thread, args []Value) (bool, waitInfo) {
	p := ptrArg(args[0])
	if p.Obj == 0 {
		return true, waitInfo{}
	}
	return toInt64(t.cell(p, 0)) == 0, waitInfo{kind: waitCell0, reason: "sync.Mutex.Lock", ptr: p}
}

// mutexLock acquires the mutex at p or blocks (re-executed when unlocked).
func (t *thread) mutexLock(p Pointer, reason string) ctl {
	t.raceLockWord(p, true) // the CompareAndSwap of m.state
	if toInt64(t.cell(p, 0)) != 0 {
		t.g.status = gBlocked
		t.g.wait = waitInfo{kind: waitCell0, reason: reason, ptr: p}
		return ctlBlock
	}
	t.setCell(p, 0, int32(1))
	t.raceLockAcquire(p, LockWrite, p)
	t.lockAcquired(t.g, p, LockWrite, false)
	return ctlNext
}

func (t *thread) mutexUnlock(p Pointer) ctl {
	if toInt64(t.cell(p, 0)) == 0 {
		return t.fatal(t.g.top, KindFatal, "sync: unlock of unlocked mutex")
	}
	t.raceLockWord(p, true)
	t.raceLockRelease(p, LockWrite, p)
	t.setCell(p, 0, int32(0))
	t.lockUnlocked(p, LockWrite)
	return ctlNext
}

func init() {
	nf := defSync("(*sync.Mutex).Lock", nativeSyncMutexLock)
	nf.guard = nilSafe(lockGuard)
	defSync("(*sync.Mutex).TryLock", nativeSyncMutexTryLock)
	defSync("(*sync.Mutex).Unlock", nativeSyncMutexUnlock)

	// RWMutex
	rl := defSync("(*sync.RWMutex).RLock", nativeSyncRWMutexRLock)
	rl.guard = nilSafe(func(t *thread, args []Value) (bool, waitInfo) {
		p := ptrArg(args[0])
		return toInt64(t.cell(p, 0)) == 0, waitInfo{kind: waitCell0, reason: "sync.RWMutex.RLock", ptr: p}
	})
	defSync("(*sync.RWMutex).TryRLock", nativeSyncRWMutexTryRLock)
	defSync("(*sync.RWMutex).RUnlock", nativeSyncRWMutexRUnlock)
	wl := defSync("(*sync.RWMutex).Lock", nativeSyncRWMutexLock)
	wl.guard = nilSafe(func(t *thread, args []Value) (bool, waitInfo) {
		p := ptrArg(args[0])
		return toInt64(t.cell(p, 0)) == 0, waitInfo{kind: waitCell0, reason: "sync.Mutex.Lock", ptr: p}
	})
	defSync("(*sync.RWMutex).TryLock", nativeSyncRWMutexTryLock)
	defSync("(*sync.RWMutex).Unlock", nativeSyncRWMutexUnlock)

	// WaitGroup
	defSync("(*sync.WaitGroup).Add", nativeSyncWaitGroupAdd)
	defSync("(*sync.WaitGroup).Done", nativeSyncWaitGroupDone)
	wg := defSync("(*sync.WaitGroup).Wait", nativeSyncWaitGroupWait)
	wg.guard = nilSafe(func(t *thread, args []Value) (bool, waitInfo) {
		p := ptrArg(args[0])
		return toInt64(t.cell(p, 0)) == 0, waitInfo{kind: waitWG, reason: "sync.WaitGroup.Wait", ptr: p}
	})
	wg.blocked = func(t *thread, args []Value) { t.wgWaitBlocks(ptrArg(args[0])) }
	defSync("(*sync.WaitGroup).Go", nativeSyncWaitGroupGo)

	// Once
	once := defSync("(*sync.Once).Do", nativeSyncOnceDo)
	once.guard = nilSafe(func(t *thread, args []Value) (bool, waitInfo) {
		p := ptrArg(args[0])
		return toInt64(t.cell(p, 1)) == 0, waitInfo{kind: waitCell0, reason: "sync.Mutex.Lock", ptr: Pointer{Obj: p.Obj, Off: p.Off + 1}}
	})

	// Cond
	def("sync.NewCond", nativeSyncNewCond)
	defSync("(*sync.Cond).Wait", nativeSyncCondWait)
	defSync("(*sync.Cond).Signal", nativeSyncCondSignal)
	defSync("(*sync.Cond).Broadcast", nativeSyncCondBroadcast)
}

// nativeSyncNewCond is sync.NewCond.
func nativeSyncNewCond(t *thread, args []Value) (Value, ctl) {
	rt := t.m.condType()
	p := t.alloc(rt)
	t.setCell(p, 0, args[0])
	return p, ctlNext
}

// readerSem and writerSem are the synchronization addresses of an RWMutex
// at p, as the race annotations of sync/rwmutex.go use them: Unlock
// releases readerSem, which RLock and Lock acquire; RUnlock releases
// writerSem, which Lock acquires (readers are not ordered among
// themselves). Its cells: w (2 cells), writerSem, readerSem, readerCount,
// readerWait.
func readerSem(p Pointer) Pointer { return Pointer{Obj: p.Obj, Off: p.Off + 3} }
func writerSem(p Pointer) Pointer { return Pointer{Obj: p.Obj, Off: p.Off + 2} }

// Phases of Cond.Wait (goroutine.nstate): re-locking a native Locker
// after the wake; with any other Locker, calling its Unlock, parked, and
// calling its Lock.
const (
	nstateRelock = 1 + iota
	nstateUnlocking
	nstateParked
	nstateLocking
)

func (t *thread) condLocker(p Pointer) Iface {
	l, _ := t.cell(p, 0).(Iface)
	return l
}

// nativeLocker reports whether l is a *sync.Mutex or *sync.RWMutex, which
// Cond locks and unlocks natively.
func nativeLocker(l Iface) bool {
	if _, ok := l.V.(Pointer); !ok || l.T == nil {
		return false
	}
	n := l.T.String()
	return n == "*sync.Mutex" || n == "*sync.RWMutex"
}

// condWaitCustom runs the rest of Cond.Wait over a Locker l of the program:
// its Unlock and Lock methods are called as any call is, with their
// scheduling points and race annotations (an atomic store in Unlock
// releases), and the goroutine parks between them. The continuation frame
// runs once per phase (goroutine.nstate).
func (t *thread) condWaitCustom(l Iface) ctl {
	unlock, lock := l.T.methodByName("Unlock"), l.T.methodByName("Lock")
	if unlock == nil || lock == nil {
		return t.unsupported(t.g.top, "sync.Cond with Locker "+l.T.String())
	}
	t.g.nstate = nstateUnlocking
	return t.callCont(t.g.top, unlock, []Value{l.V}, func(t *thread, _ Value) ctl {
		g := t.g
		switch g.nstate {
		case nstateUnlocking:
			g.nstate = nstateParked
			return t.park("sync.Cond.Wait")
		case nstateParked: // woken by Signal or Broadcast
			g.wake = nil
			t.visible = true
			t.s.last.Op = "sync.Cond.Wait"
			g.nstate = nstateLocking
			return t.callAbove(g.top, lock, []Value{l.V})
		default: // nstateLocking: Lock returned
			g.nstate = 0
			return t.ret(g.top, nil)
		}
	})
}

// lockerLock locks c.L of the Cond at p, a *sync.Mutex or *sync.RWMutex
// (nativeLocker; other Lockers go through condWaitCustom).
func (t *thread) lockerLock(p Pointer) ctl {
	l := t.condLocker(p)
	lp := l.V.(Pointer)
	if l.T.String() == "*sync.Mutex" {
		return t.mutexLock(lp, "sync.Mutex.Lock")
	}
	_, k := nativeTable["(*sync.RWMutex).Lock"].fn(t, []Value{lp})
	return k
}

// lockerUnlock unlocks c.L of the Cond at p (as lockerLock).
func (t *thread) lockerUnlock(p Pointer) ctl {
	l := t.condLocker(p)
	lp := l.V.(Pointer)
	if l.T.String() == "*sync.Mutex" {
		return t.mutexUnlock(lp)
	}
	_, k := nativeTable["(*sync.RWMutex).Unlock"].fn(t, []Value{lp})
	return k
}

func (t *thread) wgAdd(p Pointer, delta int64) ctl {
	t.s.last.Op = "sync.WaitGroup.Add"
	n := toInt64(t.cell(p, 0)) + delta
	if n < 0 {
		return t.doPanic(t.g.top, Iface{T: t.m.types.get(types.Typ[types.String]), V: "sync: negative WaitGroup counter"})
	}
	if delta < 0 {
		t.raceRelease(p)
	}
	if delta > 0 && n == delta { // the first increment: read wg.sema (see Wait)
		t.raceAccess(t.g.top, Pointer{Obj: p.Obj, Off: p.Off + 1}, 1, false)
	}
	t.setCell(p, 0, uint64(n))
	if n == 0 && toInt64(t.cell(p, 1)) != 0 {
		t.setCell(p, 1, uint32(0)) // the waiters are released
		t.wgRelease(p)
	}
	return ctlNext
}

// wgRelease wakes the goroutines waiting on the WaitGroup at p, whose
// counter reached 0: as Go's Add, which sets the state word to 0 and
// releases the semaphore once per waiter. A released waiter is enabled
// from then on whatever the WaitGroup's state becomes; when it runs, its
// Wait checks that the state is still 0 (nativeSyncWaitGroupWait).
func (t *thread) wgRelease(p Pointer) {
	var ids []int
	for g := range t.s.gs.all() {
		if g.status == gBlocked && g.wake == nil && g.wait.kind == waitWG && g.wait.ptr == p {
			ids = append(ids, g.id)
		}
	}
	for _, id := range ids {
		t.s.wakeG(id, &wakeInfo{cas: -1})
	}
}

// goidCell is a goroutine id kept in a cell of a sync value (the RWMutex
// writer), with goidHeld set once it holds the lock: the hash names it by
// rank like every goroutine id (hash.go).
type goidCell uint32

const goidHeld goidCell = 0x80000000

// condQueue is the FIFO of goroutines waiting on a sync.Cond (immutable).
type condQueue struct {
	ids []int
}

func (q *condQueue) push(id int) *condQueue {
	var ids []int
	if q != nil {
		ids = append(ids, q.ids...)
	}
	return &condQueue{ids: append(ids, id)}
}

func (q *condQueue) pop() (int, *condQueue, bool) {
	if q == nil || len(q.ids) == 0 {
		return 0, nil, false
	}
	if len(q.ids) == 1 {
		return q.ids[0], nil, true
	}
	return q.ids[0], &condQueue{ids: q.ids[1:]}, true
}

func (q *condQueue) hashInto(h *hasher) {
	if q == nil {
		return
	}
	for _, id := range q.ids {
		h.gid(id)
	}
}

// defSync defines a visible native method of a sync type on a pointer
// receiver: a nil receiver panics as the method's first dereference does.
func defSync(name string, fn func(t *thread, args []Value) (Value, ctl)) *nativeFunc {
	return defVisible(name, func(t *thread, args []Value) (Value, ctl) {
		if bad, k := t.nilSync(t.g.top, ptrArg(args[0])); bad {
			return nil, k
		}
		return fn(t, args)
	})
}

// nilSafe lets a call on a nil receiver proceed (to its panic) instead of
// evaluating the guard.
func nilSafe(guard func(t *thread, args []Value) (bool, waitInfo)) func(t *thread, args []Value) (bool, waitInfo) {
	return func(t *thread, args []Value) (bool, waitInfo) {
		if ptrArg(args[0]).Obj == 0 {
			return true, waitInfo{}
		}
		return guard(t, args)
	}
}

// nativeSyncMutexLock is (*sync.Mutex).Lock.
func nativeSyncMutexLock(t *thread, args []Value) (Value, ctl) {
	p := ptrArg(args[0])
	t.s.last.Op = "sync.Mutex.Lock"
	return nil, t.mutexLock(p, "sync.Mutex.Lock")
}

// nativeSyncMutexTryLock is (*sync.Mutex).TryLock.
func nativeSyncMutexTryLock(t *thread, args []Value) (Value, ctl) {
	p := ptrArg(args[0])
	t.raceLockWord(p, true)
	if toInt64(t.cell(p, 0)) != 0 {
		return false, ctlNext
	}
	t.setCell(p, 0, int32(1))
	t.raceLockAcquire(p, LockWrite, p)
	t.lockAcquired(t.g, p, LockWrite, true)
	return true, ctlNext
}

// nativeSyncMutexUnlock is (*sync.Mutex).Unlock.
func nativeSyncMutexUnlock(t *thread, args []Value) (Value, ctl) {
	p := ptrArg(args[0])
	t.s.last.Op = "sync.Mutex.Unlock"
	return nil, t.mutexUnlock(p)
}

// nativeSyncRWMutexRLock is (*sync.RWMutex).RLock.
func nativeSyncRWMutexRLock(t *thread, args []Value) (Value, ctl) {
	p := ptrArg(args[0])
	t.s.last.Op = "sync.RWMutex.RLock"
	t.raceLockWord(p, false)
	if toInt64(t.cell(p, 0)) != 0 {
		t.g.status = gBlocked
		t.g.wait = waitInfo{kind: waitCell0, reason: "sync.RWMutex.RLock", ptr: p}
		return nil, ctlBlock
	}
	t.setCell(p, 4, int32(toInt64(t.cell(p, 4))+1))
	t.raceLockAcquire(p, LockRead, readerSem(p))
	t.lockAcquired(t.g, p, LockRead, false)
	return nil, ctlNext
}

// nativeSyncRWMutexTryRLock is (*sync.RWMutex).TryRLock.
func nativeSyncRWMutexTryRLock(t *thread, args []Value) (Value, ctl) {
	p := ptrArg(args[0])
	t.raceLockWord(p, false)
	if toInt64(t.cell(p, 0)) != 0 {
		return false, ctlNext
	}
	t.setCell(p, 4, int32(toInt64(t.cell(p, 4))+1))
	t.raceLockAcquire(p, LockRead, readerSem(p))
	t.lockAcquired(t.g, p, LockRead, true)
	return true, ctlNext
}

// nativeSyncRWMutexRUnlock is (*sync.RWMutex).RUnlock.
func nativeSyncRWMutexRUnlock(t *thread, args []Value) (Value, ctl) {
	p := ptrArg(args[0])
	t.s.last.Op = "sync.RWMutex.RUnlock"
	n := toInt64(t.cell(p, 4))
	if n <= 0 {
		return nil, t.fatal(t.g.top, KindFatal, "sync: RUnlock of unlocked RWMutex")
	}
	t.raceLockWord(p, false)
	t.raceLockRelease(p, LockRead, writerSem(p))
	t.setCell(p, 4, int32(n-1))
	t.lockUnlocked(p, LockRead)
	return nil, ctlNext
}

// nativeSyncRWMutexLock is (*sync.RWMutex).Lock.
func nativeSyncRWMutexLock(t *thread, args []Value) (Value, ctl) {
	p := ptrArg(args[0])
	t.s.last.Op = "sync.RWMutex.Lock"
	id := int64(t.g.id)
	if toInt64(t.cell(p, 0)) != 0 && toInt64(t.cell(p, 1)) != id {
		// another writer holds or waits
		t.g.status = gBlocked
		t.g.wait = waitInfo{kind: waitCell0, reason: "sync.Mutex.Lock", ptr: p} // behind another writer: Go waits in rw.w.Lock
		return nil, ctlBlock
	}
	// announce: new readers now block
	t.setCell(p, 0, int32(1))
	t.setCell(p, 1, goidCell(id))
	if toInt64(t.cell(p, 4)) != 0 {
		t.g.status = gBlocked
		t.g.wait = waitInfo{kind: waitCell0, reason: "sync.RWMutex.Lock", ptr: Pointer{Obj: p.Obj, Off: p.Off + 4}}
		return nil, ctlBlock
	}
	t.setCell(p, 1, goidCell(id)|goidHeld) // held
	t.raceLockWord(p, false)
	t.raceLockAcquire(p, LockWrite, readerSem(p), writerSem(p))
	t.lockAcquired(t.g, p, LockWrite, false)
	return nil, ctlNext
}

// nativeSyncRWMutexTryLock is (*sync.RWMutex).TryLock.
func nativeSyncRWMutexTryLock(t *thread, args []Value) (Value, ctl) {
	p := ptrArg(args[0])
	if toInt64(t.cell(p, 0)) != 0 || toInt64(t.cell(p, 4)) != 0 {
		return false, ctlNext
	}
	t.setCell(p, 0, int32(1))
	t.setCell(p, 1, goidCell(t.g.id)|goidHeld)
	t.raceLockWord(p, false)
	t.raceLockAcquire(p, LockWrite, readerSem(p), writerSem(p))
	t.lockAcquired(t.g, p, LockWrite, true)
	return true, ctlNext
}

// nativeSyncRWMutexUnlock is (*sync.RWMutex).Unlock.
func nativeSyncRWMutexUnlock(t *thread, args []Value) (Value, ctl) {
	p := ptrArg(args[0])
	t.s.last.Op = "sync.RWMutex.Unlock"
	if toInt64(t.cell(p, 0)) == 0 {
		return nil, t.fatal(t.g.top, KindFatal, "sync: Unlock of unlocked RWMutex")
	}
	t.raceLockWord(p, false)
	t.raceLockRelease(p, LockWrite, readerSem(p))
	t.setCell(p, 0, int32(0))
	t.setCell(p, 1, uint32(0))
	t.lockUnlocked(p, LockWrite)
	return nil, ctlNext
}

// nativeSyncWaitGroupAdd is (*sync.WaitGroup).Add.
func nativeSyncWaitGroupAdd(t *thread, args []Value) (Value, ctl) {
	return nil, t.wgAdd(ptrArg(args[0]), toInt64(args[1]))
}

// nativeSyncWaitGroupDone is (*sync.WaitGroup).Done.
func nativeSyncWaitGroupDone(t *thread, args []Value) (Value, ctl) {
	return nil, t.wgAdd(ptrArg(args[0]), -1)
}

// nativeSyncWaitGroupWait is (*sync.WaitGroup).Wait.
func nativeSyncWaitGroupWait(t *thread, args []Value) (Value, ctl) {
	p := ptrArg(args[0])
	t.s.last.Op = "sync.WaitGroup.Wait"
	if t.g.wake != nil {
		// released by the Add that brought the counter to 0: Go's Wait
		// panics when the WaitGroup is in use again by then (a new Add, or
		// a new waiter)
		t.g.wake = nil
		t.raceAcquire(p)
		if toInt64(t.cell(p, 0)) != 0 || toInt64(t.cell(p, 1)) != 0 {
			return nil, t.doPanic(t.g.top, Iface{T: t.m.types.get(types.Typ[types.String]), V: "sync: WaitGroup is reused before previous Wait has returned"})
		}
		return nil, ctlNext
	}
	if toInt64(t.cell(p, 0)) != 0 {
		// (a goroutine that did not stop before the call — the first
		// operation of its transition, after a breakpoint or once the
		// counter changed — starts waiting here, not in the guard)
		t.wgWaitBlocks(p)
		t.g.status = gBlocked
		t.g.wait = waitInfo{kind: waitWG, reason: "sync.WaitGroup.Wait", ptr: p}
		return nil, ctlBlock
	}
	t.raceAcquire(p)
	return nil, ctlNext
}

// wgWaitBlocks is what a Wait on the WaitGroup at p does when it starts
// waiting, whether its guard blocked it before the call or the call
// itself blocks: Go counts waiters in the state word, and the first one
// writes wg.sema for the race detector, to race with an Add that starts
// a new round before the Wait returned (a WaitGroup reused too early) or
// that no synchronization orders before the Wait.
func (t *thread) wgWaitBlocks(p Pointer) {
	sema := Pointer{Obj: p.Obj, Off: p.Off + 1}
	w := toInt64(t.cell(p, 1))
	if w == 0 {
		t.raceAccess(t.g.top, sema, 1, true)
	}
	t.setCell(p, 1, uint32(w+1))
}

// nativeSyncWaitGroupGo is (*sync.WaitGroup).Go.
func nativeSyncWaitGroupGo(t *thread, args []Value) (Value, ctl) {
	p := ptrArg(args[0])
	if k := t.wgAdd(p, 1); k != ctlNext {
		return nil, k
	}
	f, _ := args[1].(*Closure)
	// f runs in the new goroutine's own frames (as Once.Do's function), so
	// that it blocks and is scheduled as any code: run to its end inside
	// the native, a Cond.Wait in it did not block (smallnest/ringbuffer's
	// Copy: a goroutine ended while queued on the Cond, a false deadlock).
	done := &nativeFunc{name: "sync.WaitGroup.Go", fn: func(t *thread, _ []Value) (Value, ctl) {
		return nil, t.callCont(t.g.top, f, nil, func(t *thread, _ Value) ctl {
			if k := t.wgAdd(p, -1); k != ctlNext {
				return k
			}
			return t.ret(t.g.top, nil)
		})
	}}
	// Env makes the WaitGroup and f visible to the state hash and the
	// leak check's reachability
	t.spawn(t.g.top, &Closure{Native: done, Env: []Value{p, f}}, nil, runtimeFuncName(t.g.top.fn.ssa)+".gowrap1")
	return nil, ctlNext
}

// nativeSyncOnceDo is (*sync.Once).Do.
func nativeSyncOnceDo(t *thread, args []Value) (Value, ctl) {
	p := ptrArg(args[0])
	t.s.last.Op = "sync.Once.Do"
	if toInt64(t.cell(p, 0)) != 0 {
		t.raceAcquire(p)
		return nil, ctlNext
	}
	if toInt64(t.cell(p, 1)) != 0 {
		t.g.status = gBlocked
		t.g.wait = waitInfo{kind: waitCell0, reason: "sync.Mutex.Lock", ptr: Pointer{Obj: p.Obj, Off: p.Off + 1}}
		return nil, ctlBlock
	}
	t.setCell(p, 1, int32(1))
	// done and unlocked when f returns or panics (doSlow's defers: a
	// panicking f leaves the Once done, and the goroutines waiting in Do
	// go on)
	return nil, t.callContUnwound(t.g.top, args[1], nil, func(t *thread, res Value) ctl {
		t.setCell(p, 0, uint32(1))
		t.setCell(p, 1, int32(0))
		t.raceRelease(p)
		if _, ok := res.(unwoundRes); ok {
			return ctlNext
		}
		return t.ret(t.g.top, nil)
	})
}

// nativeSyncCondWait is (*sync.Cond).Wait.
func nativeSyncCondWait(t *thread, args []Value) (Value, ctl) {
	p := ptrArg(args[0])
	g := t.g
	if w := g.wake; w != nil || g.nstate == nstateRelock {
		// signalled: re-acquire L
		g.wake = nil
		t.visible = true
		g.nstate = nstateRelock
		k := t.lockerLock(p)
		if k == ctlNext {
			g.nstate = 0
		}
		return nil, k
	}
	t.s.last.Op = "sync.Cond.Wait"
	q, _ := t.cell(p, 1).(*condQueue)
	t.setCell(p, 1, q.push(g.id))
	switch l := t.condLocker(p); {
	case l.T == nil:
		return nil, t.runtimePanic(t.g.top, "invalid memory address or nil pointer dereference")
	case !nativeLocker(l):
		return nil, t.condWaitCustom(l)
	}
	if k := t.lockerUnlock(p); k != ctlNext {
		return nil, k
	}
	return nil, t.park("sync.Cond.Wait")
}

// nativeSyncCondSignal is (*sync.Cond).Signal.
func nativeSyncCondSignal(t *thread, args []Value) (Value, ctl) {
	p := ptrArg(args[0])
	t.s.last.Op = "sync.Cond.Signal"
	q, _ := t.cell(p, 1).(*condQueue)
	if id, rest, ok := q.pop(); ok {
		t.setCell(p, 1, rest)
		t.s.wakeG(id, &wakeInfo{})
		t.raceSync(p, id)
	}
	return nil, ctlNext
}

// nativeSyncCondBroadcast is (*sync.Cond).Broadcast.
func nativeSyncCondBroadcast(t *thread, args []Value) (Value, ctl) {
	p := ptrArg(args[0])
	t.s.last.Op = "sync.Cond.Broadcast"
	q, _ := t.cell(p, 1).(*condQueue)
	for {
		id, rest, ok := q.pop()
		if !ok {
			break
		}
		q = rest
		t.s.wakeG(id, &wakeInfo{})
		t.raceSync(p, id)
	}
	t.setCell(p, 1, (*condQueue)(nil))
	return nil, ctlNext
}
