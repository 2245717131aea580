package vm

import (
	"fmt"
	"sync/atomic"

	"github.com/gmc-go/gmc/vm/loc"
)

// The race detector follows the Go memory model (go.dev/ref/mem) with
// vector clocks (happens-before, as in FastTrack): each goroutine has a
// clock; a release joins the goroutine's clock into the clock of a
// synchronization address (an object and cell offset, as the runtime
// annotates addresses) and ticks the goroutine; an acquire joins the
// address's clock into the goroutine's. Every memory cell remembers its
// last write (goroutine, clock, location, atomic or not) and the reads
// since; an access not ordered after a conflicting one (another
// goroutine's, one of them a write, not both atomic) is a data race.
// Clocks and shadows are immutable values stored in goroutines and heap
// objects, so they are copied on write with them. Code the VM runs inside
// a transition (syncCall: a String method called by fmt) has its accesses
// unchecked but its synchronizations tracked (TestNoRaceUnlockInStringMethod).
//
// The rules, each with the test that covers it (testdata/race/memmodel,
// run by TestMemoryModel; Go's own suite: benchmarks/racesuite):
//
//   - go statement before the goroutine starts (raceGo): TestNoRaceGoStatement.
//   - a send before the receive that takes its value completes; an
//     unbuffered receive before its send completes; the kth receive on a
//     channel of capacity C before the k+Cth send completes (race_chan.go):
//     TestNoRaceUnbufferedReceiveBeforeSendCompletes,
//     TestNoRaceChannelAsMutex, TestRaceBufferedReceiveNotBeforeSend,
//     TestRaceBufferedSendOnlyBeforeItsReceive.
//   - close before every receive that returns because of it, parked before
//     it or not; a send not ordered with a close races with it:
//     TestNoRaceCloseWakesBlockedReceiver, TestNoRaceCloseWakesBlockedSelect.
//   - len of a channel is no synchronization, but it observes sends and
//     receives: a scheduling point under both scheduling modes
//     (memory.go's observeChan): TestRaceChanLenNotSynchronization,
//     TestNoRaceChanLenThenReceive; so is runtime.NumGoroutine, which
//     observes goroutines ending: TestRaceNumGoroutineNotSynchronization.
//   - select as the operation it picks: TestNoRaceSelectReceive.
//   - Mutex: Unlock before the next Lock, each Mutex its own address, Lock
//     and Unlock write the Mutex atomically (natives_sync.go): TestNoRaceMutex,
//     TestRaceTwoMutexesOneStruct, TestRaceMutexOverwrite.
//   - RWMutex: Unlock before the next RLock and Lock, RUnlock before the
//     next Lock, readers unordered (readerSem, writerSem):
//     TestNoRaceRWMutexReaderThenWriter, TestRaceRWMutexReaders.
//   - Once: f returns before any Do returns: TestNoRaceOnce.
//   - WaitGroup: Done before the Wait it releases returns; an Add that
//     starts a round races with a Wait of the last one still waiting:
//     TestNoRaceWaitGroup, TestRaceWaitGroupReuse.
//   - Cond with any Locker: Signal/Broadcast before the woken Wait returns;
//     Wait calls the Locker's own Unlock and Lock: TestNoRaceCondSignal,
//     TestNoRaceCondOverSpinLock.
//   - atomics: sequentially consistent, an atomic store before the load that
//     observes it, per word; an atomic and a plain access race:
//     TestNoRaceAtomicPublish, TestRaceAtomicAndPlain.
//   - sync.Map and sync.Pool: a Store/Put before the Load/Get that observes
//     it: TestNoRaceSyncMapPublish.
//   - timers: the setter before the function or the receive of the timer's
//     value (raceTimer): TestNoRaceAfterFunc.
//   - context cancellation, through its channels: TestNoRaceContextCancel.
//   - granularity as Go's detector: each field and element a location, a map
//     one location (lookups, len and iteration read it, assignment, delete
//     and clear write it), copy/append read and write the elements they move,
//     string conversions read the bytes, len of a map reads it:
//     TestNoRaceElementsAndFields, TestRaceMapDifferentKeys, TestRaceMapLen,
//     TestRaceCopy, TestRaceStringConversion; reflect reads and writes
//     through a Value and reflect.Copy as plain accesses: TestRaceReflectSet,
//     TestNoRaceReflectCopyOrdered; an array assignment accesses every
//     element (the cells of one access share a shadow):
//     TestRaceArrayAssignOneElement, TestNoRaceArrayAssignOtherArray.

// raceState marks a state whose run detects races (its data lives in
// goroutines and objects) and holds the goroutines it has retired: ended
// goroutines every remembered access of which every live goroutine's and
// pending timer's clock covered when a hash of the state found so
// (raceSummary). Every future clock is a join of present ones (a new
// goroutine's is its parent's, a timer's function's the timer's), so
// such an access can never race again, whatever the clocks' entries for
// its goroutine become, and the goroutine makes no new one: its entries
// are left out of every clock built from then on (join, tick), so that
// clocks hold the goroutines that can still matter rather than every
// goroutine ever started (errgroup's TestGoLimit: 1,025 workers, ten at
// a time), and its accesses count as ordered before everything
// (access.unordered). Immutable: a state and its descendants share it
// until a hash retires more.
//
// A search that hashes few states (the random walks, the guided search
// between its trace sets) would retire nothing, and its clocks would grow
// to every goroutine ever started: so a run that has started
// retireEvery goroutines since the last summary makes one (maybeRetire).
type raceState struct {
	retired []uint64 // bitmap by goroutine id
	upTo    int      // the state's nextG at the summary that made it
}

func newRaceState() *raceState         { return &raceState{} }
func (r *raceState) clone() *raceState { return r }

// isRetired reports whether r retired goroutine g.
func (r *raceState) isRetired(g int) bool {
	return r != nil && g >= 0 && g/64 < len(r.retired) && r.retired[g/64]&(1<<(g%64)) != 0
}

// access is one remembered memory access.
type access struct {
	g      int
	c      uint64
	loc    loc.Loc
	atomic bool // by sync/atomic (or a sync primitive's own atomic word)
}

// unordered reports whether the earlier access a is another goroutine's
// and not ordered before the present of goroutine g, whose clock is vc
// (then it races with a conflicting access of g, unless both are atomic).
func (a access) unordered(g int, vc vclock, r *raceState) bool {
	return a.g != g && a.c > vc.get(a.g) && !r.isRetired(a.g)
}

// cellShadow is the race detector's memory of one cell (immutable).
type cellShadow struct {
	w     access
	reads []access
	// extended: a successor's reads took the free capacity after reads.
	// A read by a new goroutine appends to the list in place, once per
	// shadow (the first successor to claim it; every other copies), so a
	// cell read by n goroutines costs O(n), not O(n²): pond's test of
	// 10,000 submitters reading the pool's flags (benchmarks/RESULTS.md,
	// session 13). Accessed atomically (searches share shadows); 1: taken.
	extended uint32
}

// raceEnabled reports whether the running code's memory accesses are
// checked: not inside a transition's nested call (syncCall).
func (t *thread) raceEnabled() bool { return t.s.race != nil && t.nested == 0 }

// raceSyncEnabled reports whether synchronizations are tracked: always
// with race detection, nested calls included — a release skipped there
// (an Unlock in a String method fmt calls) would leave the accesses after
// it unordered and report a race Go does not.
func (t *thread) raceSyncEnabled() bool { return t.s.race != nil }

// raceAccess checks and records an access of n cells at p.
func (t *thread) raceAccess(fr *frame, p Pointer, n int, write bool) {
	t.raceAccessKind(fr, p, n, write, false)
}

// raceAtomic checks and records an atomic access of the cell at p: it
// races only with plain accesses.
func (t *thread) raceAtomic(fr *frame, p Pointer, write bool) {
	t.raceAccessKind(fr, p, 1, write, true)
}

func (t *thread) raceAccessKind(fr *frame, p Pointer, n int, write, atomic bool) {
	if !t.raceEnabled() || t.s.err != nil || n == 0 || p.Obj == t.m.zerobase {
		return // zero-size variables share one address but no memory
	}
	g := t.g
	if g.vc == nil {
		g.vc = oneClock(g.id)
	}
	o := t.s.heap.get(p.Obj)
	if o.readOnly {
		return // never written once shared: no access conflicts with it (byvalue.go)
	}
	here := access{g: g.id, c: g.vc.get(g.id), loc: t.locOf(fr), atomic: atomic}
	alone := t.aloneForRace()
	if !alone && t.s.runObs != nil && !t.unlogged {
		t.logAccess(p, n, write, atomic, here.loc)
	}
	var mo *Object // o, made writable on the first change
	// the cells of one access mostly share their shadow (a bulk copy wrote
	// them together): the outcome for a shadow seen just before is reused
	var lastOld, lastNew *cellShadow
	haveLast := false
	for i := 0; i < max(n, 1); i++ {
		idx := shadowIndex(p.Off + int32(i))
		sh := o.shadowAt(idx)
		var ns *cellShadow
		if haveLast && sh == lastOld {
			ns = lastNew
		} else {
			var raced bool
			ns, raced = t.raceCell(sh, here, write, atomic)
			if raced {
				return
			}
			if alone && sh.orderedBefore(g.id, g.vc, t.s.race) {
				// ordered before every future access: nothing to
				// remember, nor what was remembered, ordered before it
				// too (a read or an atomic access may follow unordered
				// reads or atomics: they stay)
				ns = nil
			}
			lastOld, lastNew, haveLast = sh, ns, true
		}
		if ns == sh {
			continue // nothing new
		}
		if mo == nil {
			mo = t.s.heap.mut(p.Obj, t.s.epoch)
			o = mo
		}
		if mo.shp == nil && mo.numCells() >= cellPageMin {
			mo.shp = newPaged[*cellShadow](shadowIndex(int32(mo.numCells())))
			for i, s := range mo.shadow {
				mo.shp.set(i, s, mo.epoch)
			}
			mo.shadow = nil
		}
		if mo.shp != nil {
			mo.shp.set(idx, ns, mo.epoch)
			continue
		}
		if idx >= len(mo.shadow) {
			// room for every cell at once (for a large object: up to the
			// cells accessed), and at least for the rest of this access:
			// grown cell by cell, a copy of a 64 KB buffer copied the
			// shadow 60,000 times (x/sync's singleflight
			// TestPanicErrorUnwrap: debug.Stack's buffer, milliseconds a
			// state)
			// and twice the room it had, up to every cell (a buffer
			// appended to a few bytes at a time)
			last := shadowIndex(p.Off + int32(max(n, 1)-1))
			room := max(last+1, shadowIndex(int32(min(mo.numCells(), maxShadowRoom))), min(2*len(mo.shadow), shadowIndex(int32(mo.numCells()))))
			grown := make([]*cellShadow, room)
			copy(grown, mo.shadow)
			mo.shadow = grown
		}
		mo.shadow[idx] = ns
	}
}

// orderedBefore reports whether every access sh remembers is ordered
// before goroutine g at clock vc (true for a nil sh).
func (sh *cellShadow) orderedBefore(g int, vc vclock, rs *raceState) bool {
	if sh == nil {
		return true
	}
	if sh.w.unordered(g, vc, rs) {
		return false
	}
	for _, r := range sh.reads {
		if r.unordered(g, vc, rs) {
			return false
		}
	}
	return true
}

// aloneForRace reports whether the running goroutine's accesses are
// ordered before every access to come: it is the only live goroutine and
// no timer is pending. Every future clock is then a join of its clock
// (goroutines it starts and timers it sets inherit it; synchronization
// clocks only add to the clock they are joined into), so such an access
// can never race and need not be remembered — nor can the access it
// replaces, which the check just found ordered before it. Package
// initialization (thousands of cells of the standard library's tables) and
// main up to its first go statement thus leave no shadow for every later
// state to carry and hash.
func (t *thread) aloneForRace() bool {
	return t.s.gs.len() == 1 && len(t.s.timers) == 0
}

// shadowAt is the shadow of the cell at index idx (shadowIndex) of o, nil
// when none.
func (o *Object) shadowAt(idx int) *cellShadow {
	if o.shp != nil {
		if idx < o.shp.n {
			return o.shp.get(idx)
		}
		return nil
	}
	if idx < len(o.shadow) {
		return o.shadow[idx]
	}
	return nil
}

// hasShadow reports whether o may have cells with a shadow.
func (o *Object) hasShadow() bool { return len(o.shadow) > 0 || o.shp != nil }

// shadowIndex is the index in Object.shadow of the cell at offset off (a
// map is one location at offset -1).
func shadowIndex(off int32) int { return int(off) + 1 }

// maxShadowRoom bounds the shadow made at once for every cell of an
// object: a large (packed) array gets room up to the cells accessed.
const maxShadowRoom = 1 << 12

// raceCell checks the access here against a cell's shadow sh, reporting a
// race (raced), and returns the cell's new shadow (sh itself if nothing
// changes).
func (t *thread) raceCell(sh *cellShadow, here access, write, atomic bool) (ns *cellShadow, raced bool) {
	g := t.g
	if sh != nil {
		if prev := sh.w; prev.unordered(g.id, g.vc, t.s.race) && !(prev.atomic && atomic) {
			t.reportRace(here, prev, write, true)
			return nil, true
		}
		if write {
			for _, r := range sh.reads {
				if r.unordered(g.id, g.vc, t.s.race) && !(r.atomic && atomic) {
					t.reportRace(here, r, true, false)
					return nil, true
				}
			}
		}
	}
	if write {
		ns = &cellShadow{w: here}
		if sh != nil && atomic { // atomic reads not ordered before stay
			for _, r := range sh.reads {
				if r.unordered(g.id, g.vc, t.s.race) {
					ns.reads = append(ns.reads, r)
				}
			}
		}
		return ns, false
	}
	if sh == nil {
		return &cellShadow{reads: []access{here}}, false
	}
	if n := len(sh.reads); n > 0 && sh.reads[n-1].g == g.id && sh.reads[n-1].c == here.c && sh.reads[n-1].atomic == atomic {
		return sh, false // same read epoch: nothing new
	}
	ns = &cellShadow{w: sh.w}
	if t.s.race.isRetired(ns.w.g) {
		ns.w = access{} // (it can no longer race: raceState)
	}
	if !t.dropsRead(sh.reads, here, g.vc) {
		n := len(sh.reads)
		if n < cap(sh.reads) && sh.claimTail() {
			ns.reads = append(sh.reads, here) // (in place: see extended)
		} else {
			ns.reads = append(sh.reads[:n:n], here) // (a new list, with room to grow)
		}
		return ns, false
	}
	for _, r := range sh.reads {
		if !t.supersedes(here, r, g.vc) {
			ns.reads = append(ns.reads, r)
		}
	}
	ns.reads = append(ns.reads, here)
	return ns, false
}

// claimTail takes the free capacity after sh.reads for one successor
// (see extended): it reports whether this caller got it.
func (sh *cellShadow) claimTail() bool {
	return atomic.CompareAndSwapUint32(&sh.extended, 0, 1)
}

// dropsRead reports whether the read here, by the running goroutine at
// clock vc, supersedes some read of reads.
func (t *thread) dropsRead(reads []access, here access, vc vclock) bool {
	for _, r := range reads {
		if t.supersedes(here, r, vc) {
			return true
		}
	}
	return false
}

// supersedes reports whether the read here, by the running goroutine at
// clock vc, makes the remembered read r of the same cell redundant: r's
// goroutine is retired (raceState), or r is ordered before here (its
// goroutine's earlier read, or another's that vc covers) and conflicts
// with whatever here does not (r is atomic, or here is plain: a plain r
// races with atomic writes an atomic here does not). A read is only ever
// checked against future writes, and a write that r races with races
// with here: whatever clock covers here covers r (happens-before is
// transitive). So the race is still reported, at here's location instead
// of r's (FastTrack's read-set collapse, kept exact for atomics). The
// reads of a cell stay as many as the goroutines reading it concurrently,
// not every goroutine that ever read it (errgroup's TestGoLimit: a field
// of the group read by 1,025 workers, ten at a time, kept a list of
// hundreds of reads in a random walk, and the readers' accesses kept
// every clock naming them: raceState). With Options.RaceAt, a read at a
// line looked for is not superseded by one at a line not looked for (the
// race with it would not be reported).
func (t *thread) supersedes(here, r access, vc vclock) bool {
	if t.s.race.isRetired(r.g) {
		return true
	}
	if r.g != here.g && r.c > vc.get(r.g) || here.atomic && !r.atomic {
		return false
	}
	if m := t.m; m.raceAt != nil && m.raceAt[m.lineOf(r.loc)] && !m.raceAt[m.lineOf(here.loc)] {
		return false
	}
	return true
}

func (t *thread) reportRace(cur, prev access, curWrite, prevWrite bool) {
	kind := func(w bool) string {
		if w {
			return "write"
		}
		return "read"
	}
	m := t.m
	if m.raceAt != nil && !m.raceAt[m.lineOf(cur.loc)] && !m.raceAt[m.lineOf(prev.loc)] {
		return // Options.RaceAt: not a race the run looks for
	}
	frame := func(a access) StackFrame {
		name := "?"
		if a.loc.Fn != nil {
			name = runtimeFuncName(a.loc.Fn)
		}
		return StackFrame{Func: name, Pos: m.shortPosition(a.loc), Loc: a.loc}
	}
	cf, pf := frame(cur), frame(prev)
	msg := fmt.Sprintf("WARNING: DATA RACE\n%s by goroutine %d:\n  %s()\n      %s\n\nPrevious %s by goroutine %d:\n  %s()\n      %s",
		capitalize(kind(curWrite)), cur.g, cf.Func, cf.Pos, kind(prevWrite), prev.g, pf.Func, pf.Pos)
	e := &Error{Kind: KindRace, Msg: msg, Pos: m.position(cur.loc), Loc: cur.loc}
	e.Goroutines = []GoroutineInfo{
		{ID: cur.g, Status: "running", Loc: cur.loc, Stack: []StackFrame{cf}},
		{ID: prev.g, Status: "previous " + kind(prevWrite), Loc: prev.loc, Stack: []StackFrame{pf}},
	}
	t.s.fail(e)
}

func capitalize(s string) string {
	if s == "" {
		return s
	}
	return string(s[0]-'a'+'A') + s[1:]
}

func (t *thread) myClock() vclock {
	g := t.g
	if g.vc == nil {
		g.vc = oneClock(g.id)
	}
	return g.vc
}

// syncClock returns the clock of the synchronization address p.
func (t *thread) syncClock(p Pointer) vclock {
	return t.s.heap.get(p.Obj).clocks[p.Off]
}

// joinSyncClock joins vc into the clock of the synchronization address p.
func (t *thread) joinSyncClock(p Pointer, vc vclock) {
	o := t.s.heap.mut(p.Obj, t.s.epoch)
	if o.clocks == nil {
		o.clocks = map[int32]vclock{}
	}
	o.clocks[p.Off] = o.clocks[p.Off].join(vc, t.s.race)
}

// raceRelease joins the running goroutine's clock into the clock of the
// synchronization address p and ticks it. Release clocks accumulate (a
// release-merge in the runtime's words): an address released by several
// goroutines (RUnlock, Done) orders them all before the next acquire,
// and one released by a single owner at a time (Unlock) already holds
// every earlier release through the acquire that preceded it.
func (t *thread) raceRelease(p Pointer) {
	if p.Obj != 0 {
		t.logSync(EvRelease, 0, p, 0)
	}
	t.raceMerge(p)
}

// raceMerge is raceRelease without its event in the prediction log (a
// lock's, logged as EvUnlock: predlog.go).
func (t *thread) raceMerge(p Pointer) {
	t.noteSync(SyncRelease, p.Obj, 0)
	if !t.raceSyncEnabled() || p.Obj == 0 {
		return
	}
	vc := t.myClock()
	t.joinSyncClock(p, vc)
	t.g.vc = vc.tick(t.g.id, t.s.race)
}

// raceAcquire joins the clock of the synchronization address p into the
// running goroutine's.
func (t *thread) raceAcquire(p Pointer) {
	if p.Obj != 0 {
		t.logSync(EvAcquire, 0, p, 0)
	}
	t.raceJoin(p)
}

// raceJoin is raceAcquire without its event in the prediction log (a
// lock's, logged as EvLock: predlog.go).
func (t *thread) raceJoin(p Pointer) {
	t.noteSync(SyncAcquire, p.Obj, 0)
	if !t.raceSyncEnabled() || p.Obj == 0 {
		return
	}
	t.g.vc = t.myClock().join(t.syncClock(p), t.s.race)
}

// raceSync orders the running goroutine's past before the woken goroutine
// partner's future (Signal waking a Wait), and ticks the running
// goroutine.
func (t *thread) raceSync(p Pointer, partner int) {
	t.noteSync(SyncWake, p.Obj, partner)
	t.logSync(EvWake, 0, p, partner)
	if !t.raceSyncEnabled() {
		return
	}
	vc := t.myClock()
	g := t.s.mutG(partner)
	g.vc = g.vc.join(vc, t.s.race)
	t.g.vc = vc.tick(t.g.id, t.s.race)
}

// raceGo gives a new goroutine its parent's clock (the go statement
// happens before the goroutine starts).
// raceTimer returns the clock a timer set now carries (nil without race
// detection) and ticks the running goroutine's, as a release.
func (t *thread) raceTimer(id ObjID) vclock {
	t.logSync(EvTimerSet, 0, Pointer{Obj: id}, 0)
	if !t.raceSyncEnabled() {
		return nil
	}
	vc := t.myClock()
	t.g.vc = vc.tick(t.g.id, t.s.race)
	return vc
}

func (t *thread) raceGo(g *goroutine) {
	t.logSync(EvGo, 0, Pointer{}, g.id)
	if !t.raceSyncEnabled() {
		return
	}
	vc := t.myClock()
	g.vc = vc.join(oneClock(g.id), t.s.race)
	t.g.vc = vc.tick(t.g.id, t.s.race)
}
