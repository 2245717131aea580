package vm

import (
	"cmp"
	"go/types"
	"math"
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

func init() {
	sleep := defVisible("time.Sleep", nativeTimeSleep)
	_ = sleep
	def("time.Now", timeNow)
	def("time.runtimeNano", nativeTimeRuntimeNano)
	def("time.runtimeNow", nativeTimeRuntimeNow)
	def("time.initLocal", nativeTimeInitLocal)
	def("time.runtimeIsBubbled", nativeTimeRuntimeIsBubbled)

	def("time.NewTimer", timeNewTimer)
	def("time.After", timeAfter)
	def("time.AfterFunc", timeAfterFunc)
	def("time.NewTicker", timeNewTicker)
	def("time.Tick", timeTick)
	// Timers follow Go 1.23's semantics: no value prepared before Stop or
	// Reset is received after it (the channel is drained), and Stop
	// reports true for a timer that fired but whose value was not received.
	stop := func(t *thread, args []Value) (Value, ctl) {
		p := ptrArg(args[0])
		pending := t.s.removeTimer(p.Obj)
		unreceived := t.drainTimer(p)
		return pending || unreceived, ctlNext
	}
	def("(*time.Timer).Stop", stop)
	def("(*time.Ticker).Stop", nativeTimeTickerStop)
	def("(*time.Timer).Reset", nativeTimeTimerReset)
	def("(*time.Ticker).Reset", nativeTimeTickerReset)
}

// after is the virtual time d ns from now, as the runtime's when(d)
// computes it: now for d <= 0, the largest time when the sum overflows (a
// timer of time.Duration(math.MaxInt64) never fires; it must not wrap
// around to the past and fire at once).
func (s *State) after(d int64) int64 {
	if d <= 0 {
		return s.clock
	}
	return addWhen(s.clock, d)
}

// addWhen is when+d, saturated at math.MaxInt64.
func addWhen(when, d int64) int64 {
	if w := when + d; w >= when {
		return w
	}
	return math.MaxInt64
}

// nativeTimeSleep is time.Sleep.
func nativeTimeSleep(t *thread, args []Value) (Value, ctl) {
	t.s.last.Op = "time.Sleep"
	if t.g.wake != nil {
		t.g.wake = nil
		return nil, ctlNext
	}
	d := toInt64(args[0])
	if d <= 0 {
		return nil, ctlNext
	}
	t.s.addTimer(timer{when: t.s.after(d), g: t.g.id, bubble: t.g.bubble})
	return nil, t.park("sleep")
}

// nativeTimeRuntimeNano is time.runtimeNano, the monotonic clock that
// Since and Until read for a Time with a monotonic reading (withMono): a
// reading like time.Now's (readNow), so that Since(a) after b := Now()
// is later than b.Sub(a), as on a real clock.
func nativeTimeRuntimeNano(t *thread, args []Value) (Value, ctl) { return t.s.readNow(), ctlNext }

// nativeTimeRuntimeNow is time.runtimeNow, which package time calls (with
// Now a native) only to fill a loaded Location's zone cache: the wall time
// of the virtual clock, read without counting as a reading of the clock.
func nativeTimeRuntimeNow(t *thread, args []Value) (Value, ctl) {
	ns := wallTime(t.g.wallBase, t.s.clock)
	return Tuple{ns / 1e9, int32(ns % 1e9), t.s.clock}, ctlNext
}

// nativeTimeRuntimeIsBubbled is time.runtimeIsBubbled: whether the
// calling goroutine is in a synctest bubble (Since and Until then read the
// bubble's clock through Now rather than the monotonic one).
func nativeTimeRuntimeIsBubbled(t *thread, args []Value) (Value, ctl) {
	return t.g.bubble != 0, ctlNext
}

// nativeTimeInitLocal is time.initLocal.
func nativeTimeInitLocal(t *thread, args []Value) (Value, ctl) {
	// the local time zone is UTC, as with an /etc/localtime of UTC
	if p, ok := t.m.globalVar("time", "localLoc"); ok {
		t.setCell(p, 0, "Local")
	}
	return nil, ctlNext
}

// nativeTimeTickerStop is (*time.Ticker).Stop.
func nativeTimeTickerStop(t *thread, args []Value) (Value, ctl) {
	p := ptrArg(args[0])
	t.s.removeTimer(p.Obj)
	t.drainTimer(p)
	return nil, ctlNext
}

// nativeTimeTimerReset is (*time.Timer).Reset.
func nativeTimeTimerReset(t *thread, args []Value) (Value, ctl) {
	p := ptrArg(args[0])
	pending := t.s.removeTimer(p.Obj)
	was := t.drainTimer(p) || pending
	tm := timer{when: t.s.after(toInt64(args[1])), id: p.Obj, vc: t.raceTimer(p.Obj), bubble: t.g.bubble, wallBase: t.g.wallBase}
	if cells := t.s.heap.get(p.Obj).Cells; len(cells) > 0 {
		tm.fn, _ = cells[len(cells)-1].(*Closure) // an AfterFunc timer (see newTimer)
	}
	if tm.fn == nil {
		tm.ch, _ = t.cell(p, 0).(Chan)
	}
	t.s.addTimer(tm)
	return was, ctlNext
}

// nativeTimeTickerReset is (*time.Ticker).Reset.
func nativeTimeTickerReset(t *thread, args []Value) (Value, ctl) {
	p := ptrArg(args[0])
	t.s.removeTimer(p.Obj)
	t.drainTimer(p)
	d := toInt64(args[1])
	ch, _ := t.cell(p, 0).(Chan)
	t.s.addTimer(timer{when: t.s.after(d), ch: ch, period: d, id: p.Obj, vc: t.raceTimer(p.Obj), bubble: t.g.bubble, wallBase: t.g.wallBase})
	return nil, ctlNext
}

// drainTimer discards the value a fired timer or ticker left in its channel
// (the *Timer or *Ticker at p; cell 0 is C) and reports whether there was
// one.
func (t *thread) drainTimer(p Pointer) bool {
	ch, ok := t.cell(p, 0).(Chan)
	if !ok || ch.Obj == 0 || len(t.s.heap.get(ch.Obj).Chan.buf) == 0 {
		return false
	}
	o := t.s.heap.mut(ch.Obj, t.s.epoch)
	o.Chan.buf = o.Chan.buf[1:]
	return true
}

// timeNow is time.Now: the virtual clock as the running goroutine reads
// it. Inside a synctest bubble time passes only when the bubble is durably
// blocked, so two readings with no blocking between them are equal (no
// nowStep, see readNow), and the wall time is the bubble's.
func timeNow(t *thread, args []Value) (Value, ctl) {
	if t.g.bubble != 0 {
		c := t.s.readClock()
		return t.withMono(t.m.wallTimeValue(wallTime(t.g.wallBase, c)), c), ctlNext
	}
	c := t.s.readNow()
	return t.withMono(t.m.timeValue(c), c), ctlNext
}

// wallToInternal is the number of seconds from year 1 to 1885, the start
// of the wall seconds of a time.Time with a monotonic reading.
const wallToInternal int64 = (1884*365 + 1884/4 - 1884/100 + 1884/400) * 86400

// withMono gives the Time v (wallTimeValue's) the monotonic reading of
// virtual time c, as time.Now's carries one: wall = hasMonotonic | seconds
// since 1885 << 30 | nanoseconds, ext = c - time.startNano. So Round(0),
// In and == see what they see in Go (testify's ObjectsAreEqualValues of
// now and now.In(time.Local) is false). Without time.startNano (pruned)
// v stays without one.
func (t *thread) withMono(v Value, c int64) Value {
	cells, ok := v.([]Value)
	if !ok || len(cells) < 2 {
		return v
	}
	p, ok := t.m.globalVar("time", "startNano")
	if !ok {
		return v
	}
	start, ok1 := t.cell(p, 0).(int64)
	nsec, ok2 := cells[0].(uint64)
	sec, ok3 := cells[1].(int64)
	if !ok1 || !ok2 || !ok3 {
		return v
	}
	sec -= wallToInternal
	if uint64(sec)>>33 != 0 { // as time.Now: no room for the seconds
		return v
	}
	cells[0] = 1<<63 | uint64(sec)<<30 | nsec
	cells[1] = c - start
	return cells
}

// newTimer makes a *time.Timer or *time.Ticker (typeName) firing after d
// ns (period > 0: every period ns) that sends on its channel or, with fn,
// calls fn in a new goroutine.
func (t *thread) newTimer(d int64, period int64, fn *Closure, typeName string) Pointer {
	rt := t.m.lookupType("time", typeName)
	var p Pointer
	if fn != nil { // one more cell keeps f for a Reset after the timer fired or stopped
		p = Pointer{Obj: t.newObject(&Object{T: rt, Cells: append(cellsOf(rt), fn)})}
	} else {
		p = t.alloc(rt)
	}
	var ch Chan
	if fn == nil {
		chT := t.m.types.get(types.NewChan(types.RecvOnly, t.m.lookupType("time", "Time").T))
		ch = Chan{Obj: t.newObject(&Object{kind: objChan, T: chT, Chan: &chanData{cap: 1}})}
		t.setCell(p, 0, ch)
	}
	t.s.addTimer(timer{when: t.s.after(d), ch: ch, fn: fn, period: period, id: p.Obj, vc: t.raceTimer(p.Obj), bubble: t.g.bubble, wallBase: t.g.wallBase})
	return p
}

// timeNewTimer is time.NewTimer.
func timeNewTimer(t *thread, args []Value) (Value, ctl) {
	return t.newTimer(toInt64(args[0]), 0, nil, "Timer"), ctlNext
}

// timeAfter is time.After.
func timeAfter(t *thread, args []Value) (Value, ctl) {
	p := t.newTimer(toInt64(args[0]), 0, nil, "Timer")
	return t.cell(p, 0), ctlNext
}

// timeAfterFunc is time.AfterFunc.
func timeAfterFunc(t *thread, args []Value) (Value, ctl) {
	return t.newTimer(toInt64(args[0]), 0, args[1].(*Closure), "Timer"), ctlNext
}

// timeNewTicker is time.NewTicker.
func timeNewTicker(t *thread, args []Value) (Value, ctl) {
	d := toInt64(args[0])
	if d <= 0 {
		return nil, t.plainPanic(t.g.top, "non-positive interval for NewTicker")
	}
	return t.newTimer(d, d, nil, "Ticker"), ctlNext
}

// timeTick is time.Tick.
func timeTick(t *thread, args []Value) (Value, ctl) {
	d := toInt64(args[0])
	p := t.newTimer(d, d, nil, "Ticker")
	return t.cell(p, 0), ctlNext
}
