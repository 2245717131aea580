package vm

import (
	"go/types"
	"sort"
	"time"
)

// Virtual time, in the style of testing/synctest: the clock advances only
// when every goroutine is blocked, to the earliest pending timer — or is
// polling. A goroutine polls when it takes the default case of a select,
// calls runtime.Gosched, runs so long without a scheduling point that
// it is preempted (maxInstrs: a loop reading the clock), or has executed
// spinInstrs instructions since it last blocked (a loop that locks and
// unlocks a mutex of its own, signals a Cond nobody waits on), and counts
// as polling until it next blocks. synctest would wait forever for a
// goroutine that spins (polls a channel or the clock in a loop) to block;
// real time passes while it spins. So when every goroutine that can run is polling, the
// next timers fire (as if the spinning goroutines had been slow for that
// long), before any of them polls again.

// spinInstrs is the work (instructions since the goroutine last blocked)
// after which a goroutine counts as polling: a few tens of microseconds of
// real time, enough for a 1ns AfterFunc to fire in the middle of a busy
// loop and for main's final time.Sleep to end while workers still run.
const spinInstrs = 1 << 14

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
}

// epochBase is the wall time of virtual time 0 (2026-01-01 UTC).
var epochBase = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC).UnixNano()

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
	ts := make([]timer, len(s.timers), len(s.timers)+len(add))
	copy(ts, s.timers)
	for _, tm := range add {
		tm.seq = seq
		seq++
		// the new timer goes after every timer due no later
		i := sort.Search(len(ts), func(i int) bool { return ts[i].when > tm.when })
		ts = append(ts, timer{})
		copy(ts[i+1:], ts[i:])
		ts[i] = tm
	}
	s.timers = ts
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

// fireTimers advances the clock to the earliest timer and fires every timer due then.
func (s *State) fireTimers() {
	if len(s.timers) == 0 {
		return
	}
	now := s.timers[0].when
	if now > s.clock {
		s.clock = now
	}
	var due []timer
	var rest []timer
	for _, x := range s.timers {
		if x.when <= s.clock {
			due = append(due, x)
		} else {
			rest = append(rest, x)
		}
	}
	s.timers = rest
	var again []timer // periodic timers, re-added after the others fire
	t := &thread{m: s.m, s: s, selCase: -1, branch: -1}
	for _, x := range due {
		switch {
		case x.g != 0:
			if g := s.getG(x.g); g != nil && g.status == gBlocked {
				s.wakeG(x.g, &wakeInfo{})
			}
		case x.fn != nil:
			t.g = &goroutine{id: 0, vc: x.vc}
			t.spawn(nil, x.fn, nil, "time.goFunc")
		case x.ch.Obj != 0:
			t.g = &goroutine{id: 0, vc: x.vc}
			tv := s.m.timeValue(s.clock)
			c := s.heap.get(x.ch.Obj).Chan
			if len(c.buf) < c.cap || s.hasWaiter(c.recvq) {
				t.trySend(nil, x.ch, tv)
			}
		}
		if x.period > 0 {
			x.when = s.clock + x.period
			again = append(again, x)
		}
	}
	if len(again) > 0 {
		s.addTimers(again)
	}
}

// timeValue builds a time.Time for virtual time ns: {wall: 0, ext: unix ns, loc: nil}.
func (m *Machine) timeValue(ns int64) Value {
	rt := m.lookupType("time", "Time")
	if rt == nil {
		return nil
	}
	cells := append([]Value(nil), rt.zero.([]Value)...)
	cells[1] = epochBase + ns
	return cells
}

func timeNanos(v Value) int64 {
	cells, _ := v.([]Value)
	if len(cells) < 2 {
		return 0
	}
	return toInt64(cells[1])
}

// lookupType finds a package-level type by package path and name.
func (m *Machine) lookupType(pkg, name string) *RType {
	for _, p := range m.prog.SSA.AllPackages() {
		if p.Pkg.Path() == pkg {
			if tn, ok := p.Pkg.Scope().Lookup(name).(*types.TypeName); ok {
				return m.types.get(tn.Type())
			}
		}
	}
	return nil
}

func (m *Machine) condType() *RType { return m.lookupType("sync", "Cond") }

func init() {
	sleep := defVisible("time.Sleep", func(t *thread, args []Value) (Value, ctl) {
		t.s.last.Op = "time.Sleep"
		if t.g.wake != nil {
			t.g.wake = nil
			return nil, ctlNext
		}
		d := toInt64(args[0])
		if d <= 0 {
			return nil, ctlNext
		}
		t.s.addTimer(timer{when: t.s.clock + d, g: t.g.id})
		return nil, t.park("sleep")
	})
	_ = sleep
	def("time.Now", func(t *thread, args []Value) (Value, ctl) { return t.m.timeValue(t.s.clock), ctlNext })
	def("time.Since", func(t *thread, args []Value) (Value, ctl) {
		return epochBase + t.s.clock - timeNanos(args[0]), ctlNext
	})
	def("time.Until", func(t *thread, args []Value) (Value, ctl) {
		return timeNanos(args[0]) - (epochBase + t.s.clock), ctlNext
	})
	def("(time.Time).Sub", func(t *thread, args []Value) (Value, ctl) {
		return timeNanos(args[0]) - timeNanos(args[1]), ctlNext
	})
	def("(time.Time).Add", func(t *thread, args []Value) (Value, ctl) {
		cells := append([]Value(nil), args[0].([]Value)...)
		cells[1] = timeNanos(args[0]) + toInt64(args[1])
		return cells, ctlNext
	})
	def("(time.Time).Before", func(t *thread, args []Value) (Value, ctl) { return timeNanos(args[0]) < timeNanos(args[1]), ctlNext })
	def("(time.Time).After", func(t *thread, args []Value) (Value, ctl) { return timeNanos(args[0]) > timeNanos(args[1]), ctlNext })
	def("(time.Time).Equal", func(t *thread, args []Value) (Value, ctl) { return timeNanos(args[0]) == timeNanos(args[1]), ctlNext })
	def("(time.Time).IsZero", func(t *thread, args []Value) (Value, ctl) { return timeNanos(args[0]) == 0, ctlNext })
	def("(time.Time).UnixNano", func(t *thread, args []Value) (Value, ctl) { return timeNanos(args[0]), ctlNext })
	def("(time.Time).Unix", func(t *thread, args []Value) (Value, ctl) { return timeNanos(args[0]) / 1e9, ctlNext })
	def("(time.Time).UnixMilli", func(t *thread, args []Value) (Value, ctl) { return timeNanos(args[0]) / 1e6, ctlNext })
	def("(time.Time).String", func(t *thread, args []Value) (Value, ctl) {
		return time.Unix(0, timeNanos(args[0])).UTC().String(), ctlNext
	})
	def("(time.Duration).String", func(t *thread, args []Value) (Value, ctl) { return time.Duration(toInt64(args[0])).String(), ctlNext })
	def("(time.Duration).Seconds", func(t *thread, args []Value) (Value, ctl) { return time.Duration(toInt64(args[0])).Seconds(), ctlNext })
	def("(time.Duration).Milliseconds", func(t *thread, args []Value) (Value, ctl) {
		return time.Duration(toInt64(args[0])).Milliseconds(), ctlNext
	})
	def("(time.Duration).Nanoseconds", func(t *thread, args []Value) (Value, ctl) { return toInt64(args[0]), ctlNext })

	newTimer := func(t *thread, d int64, period int64, fn *Closure, typeName string) Pointer {
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
		t.s.addTimer(timer{when: t.s.clock + max(d, 0), ch: ch, fn: fn, period: period, id: p.Obj, vc: t.raceTimer()})
		return p
	}
	def("time.NewTimer", func(t *thread, args []Value) (Value, ctl) {
		return newTimer(t, toInt64(args[0]), 0, nil, "Timer"), ctlNext
	})
	def("time.After", func(t *thread, args []Value) (Value, ctl) {
		p := newTimer(t, toInt64(args[0]), 0, nil, "Timer")
		return t.cell(p, 0), ctlNext
	})
	def("time.AfterFunc", func(t *thread, args []Value) (Value, ctl) {
		return newTimer(t, toInt64(args[0]), 0, args[1].(*Closure), "Timer"), ctlNext
	})
	def("time.NewTicker", func(t *thread, args []Value) (Value, ctl) {
		d := toInt64(args[0])
		if d <= 0 {
			return nil, t.plainPanic(t.g.top, "non-positive interval for NewTicker")
		}
		return newTimer(t, d, d, nil, "Ticker"), ctlNext
	})
	def("time.Tick", func(t *thread, args []Value) (Value, ctl) {
		d := toInt64(args[0])
		p := newTimer(t, d, d, nil, "Ticker")
		return t.cell(p, 0), ctlNext
	})
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
	def("(*time.Ticker).Stop", func(t *thread, args []Value) (Value, ctl) {
		p := ptrArg(args[0])
		t.s.removeTimer(p.Obj)
		t.drainTimer(p)
		return nil, ctlNext
	})
	def("(*time.Timer).Reset", func(t *thread, args []Value) (Value, ctl) {
		p := ptrArg(args[0])
		pending := t.s.removeTimer(p.Obj)
		was := t.drainTimer(p) || pending
		tm := timer{when: t.s.clock + toInt64(args[1]), id: p.Obj, vc: t.raceTimer()}
		if cells := t.s.heap.get(p.Obj).Cells; len(cells) > 0 {
			tm.fn, _ = cells[len(cells)-1].(*Closure) // an AfterFunc timer (see newTimer)
		}
		if tm.fn == nil {
			tm.ch, _ = t.cell(p, 0).(Chan)
		}
		t.s.addTimer(tm)
		return was, ctlNext
	})
	def("(*time.Ticker).Reset", func(t *thread, args []Value) (Value, ctl) {
		p := ptrArg(args[0])
		t.s.removeTimer(p.Obj)
		t.drainTimer(p)
		d := toInt64(args[1])
		ch, _ := t.cell(p, 0).(Chan)
		t.s.addTimer(timer{when: t.s.clock + d, ch: ch, period: d, id: p.Obj, vc: t.raceTimer()})
		return nil, ctlNext
	})
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
