package vm

import (
	"go/types"
	"math"
)

// The natives of package time over the VM's clock and timers (time.go):
// Sleep, Now and the runtime's clock, timers, tickers, After and
// AfterFunc.

func init() {
	defVisible("time.Sleep", nativeTimeSleep)
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
	def("(*time.Timer).Stop", nativeTimeTimerStop)
	def("(*time.Ticker).Stop", nativeTimeTickerStop)
	def("(*time.Timer).Reset", nativeTimeTimerReset)
	def("(*time.Ticker).Reset", nativeTimeTickerReset)
}

// nativeTimeTimerStop is (*time.Timer).Stop. Timers follow Go 1.23's
// semantics: no value prepared before Stop or Reset is received after it
// (the channel is drained), and Stop reports true for a timer that fired
// but whose value was not received.
func nativeTimeTimerStop(t *thread, args []Value) (Value, ctl) {
	p := ptrArg(args[0])
	pending := t.s.removeTimer(p.Obj)
	unreceived := t.drainTimer(p)
	return pending || unreceived, ctlNext
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
	if o := t.s.heap.get(p.Obj); o.numCells() > 0 {
		tm.fn, _ = o.cell(o.numCells() - 1).(*Closure) // an AfterFunc timer (see newTimer)
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
