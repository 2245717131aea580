package vm

import (
	"go/types"
)

// Coroutines: iter.Pull's runtime.newcoro and runtime.coroswitch.
//
// A coroutine is a goroutine that runs only when another hands control
// to it: newcoro makes the goroutine, parked until the first switch;
// coroswitch(c) parks the running goroutine in c and wakes the one parked
// there, which resumes where it switched (or starts); when the
// coroutine's function returns, its goroutine ends and wakes the one
// parked in c. The coroutine's object holds the id of the goroutine
// parked in it (a goidCell, renamed with the goroutines by the state
// hash) and the function. A switch is a scheduling point and orders
// everything before it before what the woken goroutine does next (the
// race detector's release and acquire on the object), as Go's direct
// handoff does.
//
// A goroutine parked in a coroutine is never reported as leaked: Go's
// leak profile knows nothing of coroutines, and a Pull whose stop is
// never called is a documented misuse, not a blocked operation.

func init() {
	def("iter.newcoro", nativeIterNewcoro)
	defVisible("iter.coroswitch", nativeIterCoroswitch)
}

// nativeIterNewcoro is runtime.newcoro(f): the coroutine, its goroutine
// parked until the first switch.
func nativeIterNewcoro(t *thread, args []Value) (Value, ctl) {
	f := args[0]
	c := Pointer{Obj: t.newObject(&Object{T: t.m.types.get(types.Universe.Lookup("any").Type()), Cells: []Value{goidCell(0), f}, shared: true})}
	start := &nativeFunc{name: "runtime.corostart", fn: func(t *thread, _ []Value) (Value, ctl) {
		t.g.wake = nil // (the first switch's)
		t.raceAcquire(c)
		return nil, t.callCont(t.g.top, f, []Value{c}, func(t *thread, _ Value) ctl {
			t.coroexit(c)
			return t.ret(t.g.top, nil)
		})
	}}
	next := t.s.runnext
	g := t.spawn(t.g.top, &Closure{Native: start, Env: []Value{c}}, nil, "runtime.corostart")
	t.s.runnext = next
	g.status = gBlocked
	g.wait = waitInfo{kind: waitCoro, reason: "coroutine", ptr: c}
	t.setCell(c, 0, goidCell(g.id))
	return c, ctlNext
}

// nativeIterCoroswitch is runtime.coroswitch(c): the running goroutine
// parks in c and the one parked there runs; called again once woken, it
// returns.
func nativeIterCoroswitch(t *thread, args []Value) (Value, ctl) {
	c := ptrArg(args[0])
	t.s.last.Op = "coroswitch"
	t.touch(c.Obj, true)
	if t.g.wake != nil { // woken by the switch back
		t.g.wake = nil
		t.raceAcquire(c)
		return nil, ctlNext
	}
	peer, _ := t.cell(c, 0).(goidCell)
	if peer == 0 {
		return nil, t.stringPanic("coroswitch on an exited coroutine")
	}
	t.setCell(c, 0, goidCell(t.g.id))
	t.raceRelease(c)
	t.s.wakeG(int(peer), &wakeInfo{cas: -1})
	t.g.status = gBlocked
	t.g.wait = waitInfo{kind: waitCoro, reason: "coroutine", ptr: c}
	return nil, ctlBlock
}

// coroexit ends coroutine c, its function returned: the goroutine parked
// in it runs.
func (t *thread) coroexit(c Pointer) {
	peer, _ := t.cell(c, 0).(goidCell)
	t.setCell(c, 0, goidCell(0))
	t.raceRelease(c)
	if peer != 0 {
		t.s.wakeG(int(peer), &wakeInfo{cas: -1})
	}
}
