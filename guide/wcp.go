package guide

import (
	"sync"

	"github.com/gmc-go/gmc/vm"
	"github.com/gmc-go/gmc/vm/loc"
)

// This file holds the predictive race analysis of one run: weak causal
// precedence (WCP, Kini, Mathur and Viswanathan, PLDI 2017), computed in
// one pass over the run's event log (vm.Event) with vector clocks. WCP
// weakens happens-before: a release of a lock is not ordered before the
// next acquisition of the lock, only
//
//	(a) before an event of a later critical section of the lock that
//	    conflicts with an event of its own critical section, and
//	(b) before the release of a later critical section of the lock whose
//	    events an event of its own critical section precedes,
//
// closed under composition with happens-before on either side. Two
// conflicting accesses of distinct goroutines that WCP does not order
// are a WCP race: the first such race of a run is a predictable race (or
// deadlock) of some correct reordering of the run; later ones may not be.
// That is enough here, because a prediction is never reported: it is
// only where the guided search looks first (predict.go), and only a race
// the happens-before detector sees in an executed run is reported.
//
// Go's synchronizations other than locks keep their happens-before
// edges (vm.EvRelease/EvAcquire, EvSlot, EvGo, EvWake, timers): they are
// hard orderings no reordering may break, as fork and join are in the
// paper. The clocks per goroutine t:
//
//	n  its local time: incremented after each release of any kind, so the
//	   accesses between two releases share a time
//	h  its happens-before clock (h[t] = n)
//	p  its WCP clock: the times of the other goroutines' events that WCP
//	   orders before t's present; C_t is p with C_t[t] = n
//
// and per lock l: the happens-before and WCP clocks of its releases (by
// mode: write critical sections order every later one, read critical
// sections only write ones), for rule (a) the happens-before clocks of
// the releases of the critical sections that read or wrote each cell,
// and for rule (b) the critical sections in acquisition order, each
// goroutine with a cursor into them. Read-write mutexes: two read critical
// sections never order each other.

// vclock32 is a vector clock over goroutine indices (wcp.idx).
type vclock32 []uint32

func (v vclock32) get(i int) uint32 {
	if i < len(v) {
		return v[i]
	}
	return 0
}

// join sets v to v ⊔ o (growing v) and returns it.
func (v vclock32) join(o vclock32) vclock32 {
	for len(v) < len(o) {
		v = append(v, 0)
	}
	for i, x := range o {
		if x > v[i] {
			v[i] = x
		}
	}
	return v
}

// set returns v with v[i] = max(v[i], x).
func (v vclock32) set(i int, x uint32) vclock32 {
	for len(v) <= i {
		v = append(v, 0)
	}
	if x > v[i] {
		v[i] = x
	}
	return v
}

func (v vclock32) clone() vclock32 { return append(vclock32(nil), v...) }

// leq reports whether v ⊑ o.
func (v vclock32) leq(o vclock32) bool {
	for i, x := range v {
		if x > o.get(i) {
			return false
		}
	}
	return true
}

// cellKey is a memory location as the race detector sees it (a map is
// one location at offset -1).
type cellKey struct {
	obj vm.ObjID
	off int32
}

// syncKey is a synchronization address: a cell, a channel's buffer slot
// (slot), or a timer.
type syncKey struct {
	obj  vm.ObjID
	off  int32
	kind vm.EventKind
}

type wthread struct {
	n    uint32
	h, p vclock32
	held []*wcs
	// cursor, per lock and mode list, is the first critical section rule
	// (b) has not ordered before the goroutine's releases yet
	cursor map[vm.LockID]*[2]int
}

// wcs is a critical section.
type wcs struct {
	lock vm.LockID
	t    int
	mi   int      // mode index: 0 write, 1 read
	acq  vclock32 // C_t at the acquisition
	rel  vclock32 // h at the release (nil: open)
	// reads, writes: the cells the section read and wrote (possibly
	// more than once each)
	reads, writes []cellKey
}

type wlock struct {
	h, p [2]vclock32 // of the releases, by mode index
	// hard: releases by a goroutine that did not hold the lock (Go lets
	// any goroutine unlock a Mutex): happens-before for every later
	// acquisition
	hardH, hardP vclock32
	recs         [2][]*wcs
	// lr, lw: by the mode index of the critical section, per cell, the
	// join of h at the releases of the critical sections that read
	// (wrote) it
	lr, lw [2]map[cellKey]vclock32
}

type wsync struct{ h, p vclock32 }

// wepoch is a remembered access.
type wepoch struct {
	t      int
	n      uint32
	at     loc.Loc
	write  bool
	atomic bool
}

type wshadow struct {
	w     wepoch // the last write, when hasW
	hasW  bool
	reads []wepoch
}

// RaceAccess is one access of a predicted race.
type RaceAccess struct {
	G     int
	At    loc.Loc
	Write bool
}

// wcp is the analysis of one run.
type wcp struct {
	// slot[g] is goroutine g's index + 1 (ids below maxSlot; idx for
	// the others)
	slot   []int32
	idx    map[int32]int
	gids   []int32
	ts     []*wthread
	locks  map[vm.LockID]*wlock
	syncs  map[syncKey]*wsync
	timers map[vm.ObjID]*wsync
	// shadow maps a cell to its remembered accesses in shadows
	shadow  map[cellKey]int32
	shadows []wshadow
	races   [][2]RaceAccess
	seen    map[[2]loc.Loc]bool
	max     int // races to find at most
	// evs is the buffer of the run's events (vm.EventLog.AppendEvents)
	evs []vm.Event
	// tmp is a scratch clock (releaseLock's C_t)
	tmp vclock32
}

// maxCellsPerAccess bounds the cells of one access the analysis tracks
// (an array assignment: its first cells).
const maxCellsPerAccess = 8

// wcpPool keeps analyses for reuse: a search analyzes many short runs,
// and the maps and buffers of one serve the next (cleared, their space
// kept).
var wcpPool = sync.Pool{New: func() any {
	return &wcp{idx: map[int32]int{}, locks: map[vm.LockID]*wlock{}, syncs: map[syncKey]*wsync{},
		timers: map[vm.ObjID]*wsync{}, shadow: map[cellKey]int32{}, seen: map[[2]loc.Loc]bool{}}
}}

// wcpRaces returns the WCP races of a run's events (at most max, one per
// pair of locations), earlier access first.
func wcpRaces(evs []vm.Event, max int) [][2]RaceAccess {
	w := wcpPool.Get().(*wcp)
	defer w.release()
	return w.run(evs, max)
}

// wcpLogRaces is wcpRaces of a run's log.
func wcpLogRaces(log vm.EventLog, max int) [][2]RaceAccess {
	w := wcpPool.Get().(*wcp)
	defer w.release()
	w.evs = log.AppendEvents(w.evs[:0])
	return w.run(w.evs, max)
}

func (w *wcp) run(evs []vm.Event, max int) [][2]RaceAccess {
	w.max = max
	for i := range evs {
		w.event(&evs[i])
		if len(w.races) >= max {
			break
		}
	}
	return append([][2]RaceAccess(nil), w.races...)
}

// release clears w and puts it back in the pool (a run's buffer of
// events too long to keep is dropped).
func (w *wcp) release() {
	clear(w.idx)
	clear(w.slot)
	clear(w.locks)
	clear(w.syncs)
	clear(w.timers)
	clear(w.shadow)
	clear(w.seen)
	clear(w.shadows)
	w.gids, w.ts, w.shadows, w.races = w.gids[:0], w.ts[:0], w.shadows[:0], w.races[:0]
	if cap(w.evs) > 1<<14 {
		w.evs = nil
	}
	if cap(w.shadows) > 1<<14 {
		w.shadows = nil
	}
	wcpPool.Put(w)
}

// maxSlot bounds the goroutine ids wcp.slot indexes.
const maxSlot = 1 << 12

// thread returns goroutine g's index, making its state on first sight.
func (w *wcp) thread(g int32) int {
	if g >= 0 && g < maxSlot {
		if int(g) < len(w.slot) && w.slot[g] != 0 {
			return int(w.slot[g]) - 1
		}
	} else if i, ok := w.idx[g]; ok {
		return i
	}
	i := len(w.ts)
	if g >= 0 && g < maxSlot {
		for int(g) >= len(w.slot) {
			w.slot = append(w.slot, 0)
		}
		w.slot[g] = int32(i + 1)
	} else {
		w.idx[g] = i
	}
	w.gids = append(w.gids, g)
	t := &wthread{n: 1, cursor: map[vm.LockID]*[2]int{}}
	t.h = t.h.set(i, 1)
	w.ts = append(w.ts, t)
	return i
}

// c returns C_t: goroutine i's WCP clock with its own time.
func (w *wcp) c(i int) vclock32 {
	t := w.ts[i]
	return t.p.clone().set(i, t.n)
}

// tick starts goroutine i's next time (after a release).
func (w *wcp) tick(i int) {
	t := w.ts[i]
	t.n++
	t.h = t.h.set(i, t.n)
}

func (w *wcp) lock(id vm.LockID) *wlock {
	l := w.locks[id]
	if l == nil {
		l = &wlock{lr: [2]map[cellKey]vclock32{{}, {}}, lw: [2]map[cellKey]vclock32{{}, {}}}
		w.locks[id] = l
	}
	return l
}

func (w *wcp) sync(k syncKey) *wsync {
	s := w.syncs[k]
	if s == nil {
		s = &wsync{}
		w.syncs[k] = s
	}
	return s
}

func modeIndex(m vm.LockMode) int {
	if m == vm.LockRead {
		return 1
	}
	return 0
}

// excluded are the mode indices of the critical sections that order a
// critical section of mode index mi: a read one is ordered only by write
// ones.
func excluded(mi int) []int {
	if mi == 1 {
		return []int{0}
	}
	return []int{0, 1}
}

func (w *wcp) event(e *vm.Event) {
	i := w.thread(e.G)
	t := w.ts[i]
	switch e.Kind {
	case vm.EvRead, vm.EvWrite, vm.EvAtomicRead, vm.EvAtomicWrite:
		write := e.Kind == vm.EvWrite || e.Kind == vm.EvAtomicWrite
		atomic := e.Kind == vm.EvAtomicRead || e.Kind == vm.EvAtomicWrite
		for k := int32(0); k < min(e.N, maxCellsPerAccess); k++ {
			w.access(i, cellKey{e.Obj, e.Off + k}, e.At, write, atomic)
		}
	case vm.EvLock:
		w.acquireLock(i, vm.LockID{Obj: e.Obj, Off: e.Off}, e.Mode)
	case vm.EvUnlock:
		w.releaseLock(i, vm.LockID{Obj: e.Obj, Off: e.Off}, e.Mode)
	case vm.EvRelease:
		s := w.sync(syncKey{e.Obj, e.Off, vm.EvRelease})
		s.h = s.h.join(t.h)
		s.p = s.p.join(t.p).set(i, t.n)
		w.tick(i)
	case vm.EvAcquire:
		s := w.sync(syncKey{e.Obj, e.Off, vm.EvRelease})
		t.h, t.p = t.h.join(s.h), t.p.join(s.p)
	case vm.EvSlot:
		s := w.sync(syncKey{e.Obj, e.Off, vm.EvSlot})
		t.h, t.p = t.h.join(s.h), t.p.join(s.p)
		s.h = s.h.join(t.h)
		s.p = s.p.join(t.p).set(i, t.n)
		w.tick(i)
	case vm.EvWake, vm.EvGo:
		j := w.thread(e.Peer)
		u := w.ts[j]
		u.h = u.h.join(t.h)
		u.p = u.p.join(t.p).set(i, t.n)
		w.tick(i)
	case vm.EvTimerSet:
		w.timers[e.Obj] = &wsync{h: t.h.clone(), p: w.c(i)}
		w.tick(i)
	case vm.EvTimerFire:
		// the runtime's pseudo-goroutine runs with the timer's clock
		t.n++
		t.h, t.p = nil, nil
		if s := w.timers[e.Obj]; s != nil {
			t.h, t.p = s.h.clone(), s.p.clone()
		}
		t.h = t.h.set(i, t.n)
	}
}

func (w *wcp) acquireLock(i int, id vm.LockID, mode vm.LockMode) {
	t, l, mi := w.ts[i], w.lock(id), modeIndex(mode)
	for _, x := range excluded(mi) {
		t.h = t.h.join(l.h[x])
		t.p = t.p.join(l.p[x])
	}
	t.h, t.p = t.h.join(l.hardH), t.p.join(l.hardP)
	cs := &wcs{lock: id, t: i, mi: mi, acq: w.c(i)}
	l.recs[mi] = append(l.recs[mi], cs)
	t.held = append(t.held, cs)
}

// releaseLock ends goroutine i's critical section of lock id in mode.
func (w *wcp) releaseLock(i int, id vm.LockID, mode vm.LockMode) {
	t, l, mi := w.ts[i], w.lock(id), modeIndex(mode)
	k := -1
	for j := len(t.held) - 1; j >= 0; j-- {
		if t.held[j].lock == id && t.held[j].mi == mi {
			k = j
			break
		}
	}
	if k < 0 {
		// another goroutine's hold (or one the log lost): a hard
		// release, which closes the holder's critical section
		for _, u := range w.ts {
			for j, cs := range u.held {
				if cs.lock == id && cs.mi == mi {
					cs.rel = t.h.clone()
					u.held = append(u.held[:j:j], u.held[j+1:]...)
					break
				}
			}
		}
		l.hardH = l.hardH.join(t.h)
		l.hardP = l.hardP.join(t.p).set(i, t.n)
		w.tick(i)
		return
	}
	cs := t.held[k]
	// rule (b): the earlier critical sections of other goroutines whose
	// acquisition WCP orders before this release are released before it
	cur := t.cursor[id]
	if cur == nil {
		cur = &[2]int{}
		t.cursor[id] = cur
	}
	w.tmp = append(append(w.tmp[:0], t.p...), make(vclock32, max(0, i+1-len(t.p)))...)
	w.tmp[i] = max(w.tmp[i], t.n)
	ct := w.tmp
	for _, x := range excluded(mi) {
		recs := l.recs[x]
		for cur[x] < len(recs) {
			r := recs[cur[x]]
			if r.t != i {
				if r.rel == nil || !r.acq.leq(ct) {
					break
				}
				t.p = t.p.join(r.rel)
			}
			cur[x]++
		}
	}
	// rule (a): what later conflicting accesses are ordered after
	for _, x := range cs.reads {
		l.lr[mi][x] = l.lr[mi][x].join(t.h)
	}
	for _, x := range cs.writes {
		l.lw[mi][x] = l.lw[mi][x].join(t.h)
	}
	l.h[mi] = l.h[mi].join(t.h)
	l.p[mi] = l.p[mi].join(t.p)
	cs.rel = t.h.clone()
	cs.reads, cs.writes = nil, nil
	t.held = append(t.held[:k:k], t.held[k+1:]...)
	w.tick(i)
}

// access checks and records goroutine i's access of cell x.
func (w *wcp) access(i int, x cellKey, at loc.Loc, write, atomic bool) {
	t := w.ts[i]
	// rule (a): a critical section's access is ordered after the
	// releases of the earlier critical sections of its locks that made a
	// conflicting access
	for _, cs := range t.held {
		l := w.locks[cs.lock]
		for _, m := range excluded(cs.mi) {
			t.p = t.p.join(l.lw[m][x])
			if write {
				t.p = t.p.join(l.lr[m][x])
			}
		}
		if write {
			if n := len(cs.writes); n == 0 || cs.writes[n-1] != x {
				cs.writes = append(cs.writes, x)
			}
		} else if n := len(cs.reads); n == 0 || cs.reads[n-1] != x {
			cs.reads = append(cs.reads, x)
		}
	}
	si, ok := w.shadow[x]
	if !ok {
		si = int32(len(w.shadows))
		w.shadows = append(w.shadows, wshadow{})
		w.shadow[x] = si
	}
	sh := &w.shadows[si]
	here := wepoch{t: i, n: t.n, at: at, write: write, atomic: atomic}
	unordered := func(e *wepoch) bool {
		return e.t != i && e.n > t.p.get(e.t) && !(e.atomic && atomic)
	}
	if sh.hasW && unordered(&sh.w) {
		w.race(&sh.w, &here)
	}
	if write {
		for k := range sh.reads {
			if unordered(&sh.reads[k]) {
				w.race(&sh.reads[k], &here)
			}
		}
		sh.w, sh.hasW, sh.reads = here, true, sh.reads[:0]
		return
	}
	for k := range sh.reads {
		if sh.reads[k].t == i {
			sh.reads[k] = here
			return
		}
	}
	sh.reads = append(sh.reads, here)
}

// race records the race of the earlier access a with b (once per pair of
// locations).
func (w *wcp) race(a, b *wepoch) {
	if a.at.Fn == nil || b.at.Fn == nil || len(w.races) >= w.max {
		return
	}
	k := [2]loc.Loc{a.at, b.at}
	if w.seen[k] {
		return
	}
	w.seen[k] = true
	w.races = append(w.races, [2]RaceAccess{{G: int(w.gids[a.t]), At: a.at, Write: a.write}, {G: int(w.gids[b.t]), At: b.at, Write: b.write}})
}
