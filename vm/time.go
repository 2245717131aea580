package vm

import (
	"cmp"
	"go/types"
	"slices"
	"strings"
	"time"
)

// Time models. The default is virtual time as testing/synctest runs it:
// the clock advances only when no goroutine can make progress — every
// goroutine is durably blocked, or every goroutine that can run spins —
// and then to the earliest pending timer, firing every timer due then. A
// timer never fires before its duration of virtual time has passed, and
// the program's own work takes no time: a one-second watchdog never fires
// while other goroutines have work left.
//
// A goroutine spins when it keeps returning to the same state without
// blocking: synctest would wait forever for it to block, while in a real
// run time passes as it spins, so its timers fire. The VM detects it by
// probing the goroutine's transitions: a transition in which it polled
// (took a select's default case, called runtime.Gosched, was preempted
// after maxInstrs instructions without a scheduling point) is probed, and
// so are the spinProbes transitions after it has worked spinInstrs
// instructions without blocking (a loop of atomics or of a mutex of its
// own). A probe hashes the whole state (contentHash: heap, goroutines,
// clock, timers; not the spin records) and the goroutine spins when the
// hash equals that of one of its spinRing last probes: it went around a cycle of
// states and will go around it again (a probe hashes the state only if
// the goroutine alone is as an earlier probe found it, so a goroutine that
// polls once and blocks, or counts as it loops, costs no such hash). Timers fire (State.settle) only
// when every goroutine that can run spins and the current state is the one
// each of them returned to (a goroutine whose spin another goroutine has
// since disturbed must poll again), so the state in which time passes is
// one the program can stay in forever without time passing. A goroutine
// that took a default once and went on, or polls while its state keeps
// changing (a counter, a retry bound, work between the polls), is not
// spinning and makes no time pass — except a loop waiting for a deadline:
// a transition that polled and read the clock at least clockPollReads
// times counts as spinning in the state it ends in if an earlier such
// transition of the goroutine ended in the same state but for the clock
// (each reading moves the clock by nowStep, so its state never repeats;
// in a real run time passes as it polls; a single poll followed by a
// timestamp is not a loop and makes no time pass). A goroutine's probes stop after
// spinMisses probes in a row that found the goroutine as before but the
// state changed (others work), until it has worked
// spinInstrs more instructions (so a long-running worker that polls on
// each iteration costs a hash only now and then); a goroutine that blocks
// starts afresh. Probes are skipped while no timer is pending and in
// real time (StepTime: the clock moves, no state repeats); each stretch of
// long work before a probe is twice the previous one (up to
// spinInstrs<<spinMaxLevel), and a goroutine's spin record says spinning
// only after a probe that found its cycle.
//
// Two other models are options (vm.Options): StepTime (--step-time D),
// real time, every transition takes D and timers fire when due, for
// programs that spin without repeating a state; TimerChoice (--timing
// any), any pending timer may fire at any scheduling point, for
// timing-dependent failures only: a finding under it may need a timer to
// fire before its duration has passed in real time, and says so.

// spinInstrs is the work (instructions without blocking) after which a
// goroutine's next spinProbes transitions are probed for spinning.
const spinInstrs = 1 << 14

// transitionWork is the least work a transition counts for (a scheduling
// point costs as much as a few instructions), so that a loop of sync
// operations is probed after spinInstrs/transitionWork transitions.
const transitionWork = 16

// The spin detector's bounds (see above).
const (
	spinRing   = 16           // loops of up to 16 transitions per iteration
	spinProbes = 3 * spinRing // see a place, hash the state there, find it again
	spinMisses = 16
)

// spinInfo is what a goroutine's probes showed.
type spinInfo struct {
	marks    [spinRing]spinMark // the last probes
	next     int                // where the next mark goes
	spinning bool               // the last probe found a hash of marks
	fp       uint64             // the hash the last probe found (when spinning)
	misses   int                // probes in a row that found no cycle
	probes   int                // transitions left to probe after long work
	level    int                // the next stretch of long work is spinInstrs<<level
}

// spinMaxLevel bounds the growth of the long-work bound: a goroutine that
// works without blocking is probed after spinInstrs, 2*spinInstrs, ...
// instructions, up to spinInstrs<<spinMaxLevel, so a worker that runs
// long costs few probes.
const spinMaxLevel = 10

// spinMark is a probe: the hash of the goroutine alone (its frames and
// registers, the objects they point to numbered, not followed) and, if an
// earlier probe had found the goroutine so, the hash of the whole state (0:
// not hashed). Only a goroutine back where and as it was before can have
// returned to the same state, so a probe of a goroutine that has moved on
// (a loop counter, a new place) costs no hash of the state.
type spinMark struct {
	local uint64
	fp    uint64
}

// localHash hashes goroutine g alone (see spinMark).
func (s *State) localHash(g *goroutine) uint64 {
	h := &hasher{h: fnvOffset, s: s, ids: make(map[ObjID]int, 8), gmode: gidsRaw, live: true}
	h.goroutine(g)
	return h.h
}

// workBound returns the work after which a goroutine with spin record si
// (nil: none yet) is probed again.
func (si *spinInfo) workBound() int32 {
	if si == nil {
		return spinInstrs
	}
	return spinInstrs << si.level
}

// clockPollSalt tells the marks of clock polls (hashes of the state but
// for the clock) from those of other probes.
const clockPollSalt = 0x9e3779b97f4a7c15

// clockPollReads is the number of clock readings after which a transition
// that polled (was preempted in a loop, took a default, yielded) counts as
// polling the clock: its goroutine waits for time to pass.
const clockPollReads = 2

// probeSpin probes goroutine id's last transition (long: it had worked
// spinInstrs instructions without blocking; clock: it polled the clock)
// and records what it shows in the goroutine's spin record.
func (s *State) probeSpin(id int, long, clock bool) {
	g := s.getG(id)
	if g == nil || g.status == gBlocked || g.status == gDead {
		return
	}
	var si spinInfo
	if g.spin != nil {
		si = *g.spin
	}
	if long {
		si.misses, si.probes = 0, spinProbes
		si.level = min(si.level+1, spinMaxLevel)
	} else if si.probes > 0 {
		si.probes--
	}
	si.spinning = false
	if clock && len(s.timers) > 0 {
		// A loop that polls the clock waits for time to pass: each
		// reading moves the clock by nowStep (readNow), so its state
		// never repeats, but in a real run time passes as it polls and
		// timers fire when due. It counts as spinning in this very state
		// once it has come back to a state of an earlier such probe but
		// for the clock: a goroutine that polls once, reads the clock and
		// goes on (a select's default, then a timestamp) makes no time
		// pass.
		w := s.walkClock(s.m.hashRoots, clockNone)
		h := w.h ^ clockPollSalt
		w.release()
		for _, m := range si.marks {
			if m.fp == h {
				si.spinning, si.fp, si.misses = true, s.contentHash(), 0
				break
			}
		}
		if !si.spinning {
			si.marks[si.next] = spinMark{fp: h}
			si.next = (si.next + 1) % spinRing
		}
	} else if len(s.timers) > 0 && si.misses < spinMisses {
		at, seen, compared := s.localHash(g), false, false
		for _, m := range si.marks {
			if m.local == at {
				seen, compared = true, compared || m.fp != 0
			}
		}
		var h uint64
		if seen {
			h = s.contentHash()
			for _, m := range si.marks {
				if m.local == at && m.fp == h {
					si.spinning, si.fp = true, h
					break
				}
			}
		}
		if !si.spinning {
			si.marks[si.next] = spinMark{local: at, fp: h}
			si.next = (si.next + 1) % spinRing
			if compared { // the goroutine is as before, the state is not
				si.misses++
			}
		} else {
			si.misses = 0
		}
	}
	if g.spin != nil && *g.spin == si {
		return
	}
	s.mutG(id).spin = &si
}

// spinning reports whether every goroutine that can run spins in the
// current state: its last probe found a cycle back to this very state.
func (s *State) spinning() bool {
	h := s.contentHash()
	for g := range s.gs.all() {
		if s.enabled(g) && (g.spin == nil || !g.spin.spinning || g.spin.fp != h) {
			return false
		}
	}
	return true
}

// timer is a pending timer (immutable once in the state's list).
type timer struct {
	when   int64
	seq    int
	g      int      // goroutine to wake (time.Sleep)
	ch     Chan     // channel to send the time on (Timer.C, Ticker.C)
	fn     *Closure // function to start (AfterFunc)
	period int64    // tickers
	id     ObjID    // the *Timer / *Ticker object (for Stop/Reset)
	// vc is the clock of the goroutine that set the timer (race detection
	// only): as in Go's runtime, setting a timer happens before its
	// function starts and before its channel receives the time.
	vc vclock
	// bubble and wallBase are those of the goroutine that set the timer
	// (synctest.go): its function runs in that bubble, and its channel
	// receives the time as that bubble reads it.
	bubble   int
	wallBase int64
	// late: set, or re-armed (a ticker's next period), after the entry
	// of a test returned and a timer fired (afterLife). Such timers never
	// fire (settle): a test binary exits soon after its tests return, so
	// what the test left behind fires once (a goroutine that sleeps and
	// then fails the test is still found, even when it went to sleep
	// after the test returned) but a background loop does not go on
	// forever (a package's init goroutine refreshing a cached clock on a
	// ticker kept every run of every test going: panjf2000/ants, all of
	// its tests unknown).
	late bool
}

// epochBase is the wall time of virtual time 0: 2026-06-17
// 10:23:45.678901234 UTC, a constant off every calendar boundary (second,
// minute, hour, day, month, year), as the clock a test reads on a real
// machine almost always is. It was New Year's midnight: robfig/cron's
// TestJob schedules one job every second and one at 00:00:01 on January 1,
// and started at midnight both fired at once — a negative WaitGroup
// counter go test never sees.
var epochBase = time.Date(2026, 6, 17, 10, 23, 45, 678901234, time.UTC).UnixNano()

func (s *State) addTimer(tm timer) {
	s.addTimers([]timer{tm})
}

// addTimers adds timers in order, each with the next sequence number (the
// order among timers due at the same time). The list is shared with
// earlier states: it is copied once.
func (s *State) addTimers(add []timer) {
	seq := 0
	for _, x := range s.timers {
		seq = max(seq, x.seq+1)
	}
	// each new timer goes after every timer due no later: the new ones,
	// numbered in order and sorted stably by due time, merged after the
	// present ones at equal times
	nw := make([]timer, len(add))
	for i, tm := range add {
		tm.late = s.afterLife()
		tm.seq = seq
		seq++
		nw[i] = tm
	}
	slices.SortStableFunc(nw, func(a, b timer) int { return cmp.Compare(a.when, b.when) })
	ts := make([]timer, 0, len(s.timers)+len(nw))
	old := s.timers
	for len(old) > 0 && len(nw) > 0 {
		if old[0].when <= nw[0].when {
			ts, old = append(ts, old[0]), old[1:]
		} else {
			ts, nw = append(ts, nw[0]), nw[1:]
		}
	}
	ts = append(ts, old...)
	s.timers = append(ts, nw...)
}

// removeTimer deletes the timers of object id; it reports whether one was pending.
func (s *State) removeTimer(id ObjID) bool {
	found := false
	var ts []timer
	for _, x := range s.timers {
		if x.id == id && id != 0 {
			found = true
			continue
		}
		ts = append(ts, x)
	}
	s.timers = ts
	return found
}

// timerLatency is how long after its time a timer outside a synctest bubble
// wakes its goroutine: about the scheduler's timer latency on Linux (a few
// microseconds at least; Go promises only that a timer never fires early).
// It is more than the clock readings of any goroutine that ran since the
// timer was set cost (nowStep each), so that a time read just after a
// sleep began is over by the sleep's duration when the sleeper wakes.
const timerLatency = 1000

// fireTimers advances the clock to the earliest timer and fires every timer due then.
func (s *State) fireTimers() {
	if len(s.timers) == 0 {
		return
	}
	s.chashed = false
	now := s.timers[0].when
	if s.timers[0].bubble == 0 {
		// outside a synctest bubble a timer wakes its goroutine
		// timerLatency after its time: the wake-up takes time on every
		// machine, and code relies on it (a retry loop that slept
		// 2 × 200 ms asserts that more than 400 ms passed; a circuit
		// breaker that recorded an error just after its caller went to
		// sleep for the error window expects the window to be over when
		// the caller wakes). Inside a bubble, timers fire at their time
		// exactly, as testing/synctest's do.
		now += timerLatency
	}
	if now > s.clock {
		s.clock = now
	}
	if s.entryDone {
		s.afterFired = true // (afterLife)
	}
	// the list is in due order: the timers due now are a prefix (the rest
	// shares the list, which is never written in place)
	k := 0
	for k < len(s.timers) && s.timers[k].when <= s.clock {
		k++
	}
	due := s.timers[:k:k]
	s.timers = s.timers[k:]
	if len(s.timers) == 0 {
		s.timers = nil
	}
	var again []timer // periodic timers, re-added after the others fire
	t := &thread{m: s.m, s: s, selCase: -1, branch: -1}
	for _, x := range due {
		switch {
		case x.g != 0:
			if g := s.getG(x.g); g != nil && g.status == gBlocked {
				s.wakeG(x.g, &wakeInfo{})
			}
		case x.fn != nil:
			t.g = &goroutine{id: 0, vc: x.vc, bubble: x.bubble, wallBase: x.wallBase}
			t.logSync(EvTimerFire, 0, Pointer{Obj: x.id}, 0)
			t.spawn(nil, x.fn, nil, "time.goFunc")
		case x.ch.Obj != 0:
			t.g = &goroutine{id: 0, vc: x.vc}
			t.logSync(EvTimerFire, 0, Pointer{Obj: x.id}, 0)
			tv := s.m.wallTimeValue(wallTime(x.wallBase, s.clock)) // (kept in the state: no readClock)
			c := s.heap.get(x.ch.Obj).Chan
			if len(c.buf) < c.cap || s.hasWaiter(c.recvq) {
				t.trySend(nil, x.ch, tv)
			}
		}
		if x.period > 0 {
			// the next tick keeps to the ticker's own times (the wake-up
			// latency does not accumulate), and is never due already
			x.when = addWhen(x.when, x.period)
			if x.when <= s.clock {
				x.when = s.after(x.period)
			}
			again = append(again, x)
		}
	}
	if len(again) > 0 {
		s.addTimers(again)
	}
}

// afterLife reports whether a timer has fired since the entry of a test
// returned (time passed): the timers set from then on are late.
func (s *State) afterLife() bool { return s.afterFired }

// unixToInternal is the number of seconds from year 1 (time.Time's
// origin) to 1970.
const unixToInternal int64 = (1969*365 + 1969/4 - 1969/100 + 1969/400) * 86400

// wallTime is the wall time, in Unix nanoseconds, of virtual time ns for a
// goroutine or timer whose wallBase is base (0: outside any synctest
// bubble, virtual time 0 is epochBase).
func wallTime(base, ns int64) int64 {
	if base == 0 {
		base = epochBase
	}
	return base + ns
}

// timeValue builds the time.Time of virtual time ns outside any synctest
// bubble (see wallTimeValue).
func (m *Machine) timeValue(ns int64) Value { return m.wallTimeValue(epochBase + ns) }

// wallTimeValue builds the time.Time of Unix time unix (nanoseconds) in
// package time's own representation, without a monotonic reading: {wall:
// nanoseconds, ext: seconds since year 1, loc: time.Local}. Package time
// runs from its source on these values.
func (m *Machine) wallTimeValue(unix int64) Value {
	m.timeOnce.Do(func() { m.timeType = m.lookupType("time", "Time") })
	rt := m.timeType
	if rt == nil {
		return nil
	}
	sec, nsec := unix/1e9, unix%1e9
	if nsec < 0 {
		sec, nsec = sec-1, nsec+1e9
	}
	cells := append([]Value(nil), rt.Zero().([]Value)...)
	cells[0] = uint64(nsec)
	cells[1] = sec + unixToInternal
	if p, ok := m.globalVar("time", "localLoc"); ok { // time.Local, as time.Now
		cells[2] = p
	}
	return cells
}

// lookupType finds a package-level type by package path and name ("*T":
// the pointer to T), or nil; the answer is cached (typeByName).
func (m *Machine) lookupType(pkg, name string) *RType {
	key := pkg + "." + name
	if rt, ok := m.typeByName.Load(key); ok {
		return rt.(*RType)
	}
	var found *RType
	if elem, ok := strings.CutPrefix(name, "*"); ok {
		if e := m.lookupType(pkg, elem); e != nil {
			found = m.types.get(types.NewPointer(e.T))
		}
	} else {
		for _, p := range m.prog.SSA.AllPackages() {
			if p.Pkg.Path() == pkg {
				if tn, ok := p.Pkg.Scope().Lookup(name).(*types.TypeName); ok {
					found = m.types.get(tn.Type())
					break
				}
			}
		}
	}
	m.typeByName.Store(key, found)
	return found
}

func (m *Machine) condType() *RType { return m.lookupType("sync", "Cond") }
