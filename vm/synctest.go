package vm

// testing/synctest bubbles. Package testing/synctest runs from its source
// (Test, Wait); these are the natives of the runtime side it calls:
// internal/synctest.Run, Wait and IsInBubble, and the testing package's
// testingSynctestTest.
//
// The VM's default clock already advances as a bubble's does: only when
// every goroutine is durably blocked, then to the earliest timer. A
// bubble adds what a test inside one can observe:
//   - membership: Run starts f on a new goroutine of a new bubble, whose
//     id is the goroutine blocked in Run; goroutines and timer functions
//     inherit the bubble of the goroutine that started or set them;
//   - the bubble's clock: time.Now in the bubble reads 2000-01-01 00:00 UTC
//     plus the virtual time since Run, and two readings with no blocking
//     between them are equal; a timer set in the bubble sends that time;
//   - Wait blocks until every other goroutine of the bubble is durably
//     blocked (blocked on anything but a mutex: Go does not count
//     sync.Mutex and RWMutex waits as durable), and does not let time pass
//     (its goroutine is enabled then);
//   - Run returns when every goroutine of the bubble has exited; if
//     instead the whole program is blocked with no timer pending while
//     bubble goroutines remain, Run panics as Go's does ("deadlock: all
//     goroutines in bubble are blocked", or "main bubble goroutine has
//     exited but blocked goroutines remain"). Go panics as soon as the
//     bubble alone is idle; the VM only when nothing at all can run or
//     fire, where it would otherwise report a global deadlock, so the
//     panic is never a false alarm;
//   - the time models: while a bubble runs, time passes as above also
//     under --step-time and --timing any (Go guarantees a bubble's timing
//     whatever the machine's speed), so a bubble's timing is never
//     blamed for a failure it cannot have;
//   - happens-before: the exit of a bubble goroutine is ordered before
//     Run's return and before a later Wait's return, and, as in Go, Wait
//     acquires what the blocked goroutines of the bubble did before they
//     blocked.
//
// Not modelled: a channel or timer created outside the bubble and used
// inside (Go does not count such a wait as durable, the VM does); the
// bubble of an object (internal/synctest.Associate).

// synctestBase is the wall time a bubble's clock starts at (midnight UTC
// 2000-01-01, as the runtime's synctestBaseTime).
const synctestBase int64 = 946684800000000000

func init() {
	defVisible("internal/synctest.Run", synctestRun)
	w := defVisible("internal/synctest.Wait", synctestWait)
	w.guard = synctestWaitGuard
	def("internal/synctest.IsInBubble", synctestIsInBubble)
	def("testing/synctest.testingSynctestTest", synctestTestingTest)
}

// synctestRun is internal/synctest.Run(f): f runs on a new goroutine in a
// new bubble; the caller waits in phase nstate = the root goroutine's id
// until the bubble ended or deadlocked (State.bubbleRunReady).
func synctestRun(t *thread, args []Value) (Value, ctl) {
	g := t.g
	t.touch(AllObjects, true)
	if g.nstate == 0 {
		if g.bubble != 0 {
			return nil, t.stringPanic("synctest.Run called from within a synctest bubble")
		}
		cl, _ := args[0].(*Closure)
		if cl == nil {
			return nil, t.plainPanic(t.g.top, "invalid memory address or nil pointer dereference")
		}
		start := "internal/synctest.Run"
		if cl.Fn != nil {
			start = runtimeFuncName(cl.Fn)
		}
		root := t.spawn(nil, cl, nil, start)
		root.bubble, root.wallBase = g.id, synctestBase-t.s.clock
		g.nstate = root.id
		t.s.bubbles++
		g.bubbleVC = nil
		g.status = gBlocked
		g.wait = waitInfo{kind: waitBubbleRun, reason: "synctest.Run"}
		return nil, ctlBlock
	}
	if !t.s.bubbleRunReady(g) { // (re-executed without its guard holding)
		g.status = gBlocked
		g.wait = waitInfo{kind: waitBubbleRun, reason: "synctest.Run"}
		return nil, ctlBlock
	}
	root := g.nstate
	g.nstate = 0
	t.s.bubbles--
	if t.raceSyncEnabled() {
		g.vc = t.myClock().join(g.bubbleVC, t.s.race)
	}
	g.bubbleVC = nil
	if !t.s.bubbleLive(g.id) {
		return nil, ctlNext
	}
	msg := "deadlock: all goroutines in bubble are blocked"
	if t.s.getG(root) == nil || t.s.getG(root).status == gDead {
		msg = "deadlock: main bubble goroutine has exited but blocked goroutines remain"
	}
	return nil, t.plainPanic(t.g.top, msg)
}

// synctestWaitGuard lets internal/synctest.Wait proceed when the rest of
// the bubble is durably blocked, or when it must panic (no bubble, or
// another goroutine of the bubble already waiting).
func synctestWaitGuard(t *thread, args []Value) (bool, waitInfo) {
	w := waitInfo{kind: waitBubbleWait, reason: "synctest.Wait"}
	return t.g.bubble == 0 || t.s.bubbleWaiter(t.g) || t.s.bubbleIdle(t.g), w
}

// synctestWait is internal/synctest.Wait.
func synctestWait(t *thread, args []Value) (Value, ctl) {
	g := t.g
	t.touch(AllObjects, true)
	switch {
	case g.bubble == 0:
		return nil, t.stringPanic("goroutine is not in a bubble")
	case t.s.bubbleWaiter(g):
		return nil, t.stringPanic("wait already in progress")
	case !t.s.bubbleIdle(g):
		g.status = gBlocked
		g.wait = waitInfo{kind: waitBubbleWait, reason: "synctest.Wait"}
		return nil, ctlBlock
	}
	if t.raceSyncEnabled() {
		vc := t.myClock()
		if run := t.s.getG(g.bubble); run != nil {
			vc = vc.join(run.bubbleVC, t.s.race)
		}
		for o := range t.s.gs.all() {
			if o != g && o.bubble == g.bubble {
				vc = vc.join(o.vc, t.s.race)
			}
		}
		g.vc = vc
	}
	return nil, ctlNext
}

// synctestIsInBubble is internal/synctest.IsInBubble.
func synctestIsInBubble(t *thread, args []Value) (Value, ctl) {
	return t.g.bubble != 0, ctlNext
}

// synctestTestingTest is testing's testingSynctestTest(t, f), called by
// synctest.Test on the bubble's root goroutine: f runs with a new
// *testing.T as a test of its own (its cleanups and its context's
// cancellation inside the bubble), and the result is whether it passed.
// Like t.Run's subtests, it runs on the calling goroutine.
func synctestTestingTest(t *thread, args []Value) (Value, ctl) {
	sub := t.alloc(t.s.heap.get(ptrArg(args[0]).Obj).T)
	t.share(sub)
	t.testSetName(sub, t.testNameOf(ptrArg(args[0])))
	return nil, t.runTest(t.g.top, args[1], sub, func(t *thread) Value {
		return !(t.s.test != nil && t.s.test.failed)
	})
}

// bubbleLive reports whether a goroutine of bubble id is alive.
func (s *State) bubbleLive(id int) bool {
	for o := range s.gs.all() {
		if o.bubble == id && o.status != gDead {
			return true
		}
	}
	return false
}

// durablyBlocked reports whether goroutine g waits for another goroutine
// of its bubble or for time: blocked with its guard false, and not on a
// mutex (which Go's runtime does not count as durable).
func (s *State) durablyBlocked(g *goroutine) bool {
	if g.status == gDead {
		return true
	}
	if g.status != gBlocked || g.wake != nil {
		return false
	}
	switch g.wait.kind {
	case waitCell0, waitCellLE0, waitRWLock, waitBubbleWait, waitBubbleRun:
		return false
	}
	return !s.guard(g)
}

// bubbleIdle reports whether every goroutine of g's bubble but g is
// durably blocked (or exited): synctest.Wait's condition.
func (s *State) bubbleIdle(g *goroutine) bool {
	for o := range s.gs.all() {
		if o != g && o.id != g.id && o.bubble == g.bubble && !s.durablyBlocked(o) {
			return false
		}
	}
	return true
}

// bubbleWaiter reports whether another goroutine of g's bubble is in
// synctest.Wait.
func (s *State) bubbleWaiter(g *goroutine) bool {
	for o := range s.gs.all() {
		if o.id != g.id && o.bubble == g.bubble && o.status == gBlocked && o.wait.kind == waitBubbleWait {
			return true
		}
	}
	return false
}

// bubbleRunReady is the guard of a goroutine g blocked in synctest.Run:
// its bubble has no goroutine left, or it is deadlocked — no goroutine of
// the program can run, no timer is pending, and every goroutine of the
// bubble is durably blocked (see the file's comment).
func (s *State) bubbleRunReady(g *goroutine) bool {
	if !s.bubbleLive(g.id) {
		return true
	}
	if len(s.timers) > 0 {
		return false
	}
	for o := range s.gs.all() {
		switch {
		case o.id == g.id || o.status == gDead:
		case o.bubble == g.id:
			if !s.durablyBlocked(o) {
				return false
			}
		case o.status == gBlocked && o.wait.kind == waitBubbleRun:
			// another bubble's Run: not evaluated here (its guard would
			// evaluate this one's)
		case s.enabled(o):
			return false
		}
	}
	return true
}

// bubbleExit records the race clock of an exiting goroutine of a bubble
// with the goroutine blocked in its Run.
func (t *thread) bubbleExit(g *goroutine) {
	if g.bubble == 0 || !t.raceSyncEnabled() {
		return
	}
	if run := t.s.mutG(g.bubble); run != nil {
		run.bubbleVC = run.bubbleVC.join(t.myClock(), t.s.race)
	}
}
