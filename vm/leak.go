package vm

// Goroutine leaks, as Go 1.26's goroutine leak profile defines them.
//
// When the entry has returned and no goroutine can run, a blocked goroutine
// is leaked iff nothing that could still run can reach the concurrency
// primitive it waits on: the runtime's GC marks from the globals and the
// stacks of the goroutines that are not blocked, treats a blocked
// goroutine as live (its stack a root) once the primitive it is blocked on
// is marked, and reports the goroutines left unmarked. A goroutine blocked
// on a global channel is therefore not leaked (NoLeakGlobal in the GoKer
// directory), while one blocked on a nil channel or an empty select always
// is. If no goroutine is leaked, the program ends normally (its process
// would exit when main returns).
//
// A goroutine leaked at some point stays leaked (no live goroutine can
// obtain a reference to an unreachable object), so the VM also checks when
// the entry returns and every leakCheckEvery transitions, and reports the
// leak then, without running the rest of the program.

// leakCheckEvery is the period, in transitions along a path, of the leak
// check before the program ends: a goroutine blocked on a primitive
// nothing live can reach stays blocked forever, so a run that leaks
// repeatedly (kernels looping a thousand times) is reported early.
const leakCheckEvery = 1024

// leakCheckDue reports whether the periodic leak check runs after this
// transition: every leakCheckEvery transitions, a period doubled for every
// doubling of the goroutines past 512, since a check walks the whole heap
// (thousands of goroutines would otherwise spend a fifth of the run in
// checks). A leak stays a leak, so a later check only reports it later.
func (s *State) leakCheckDue() bool {
	p := leakCheckEvery
	for n := s.gs.len(); n > 512; n /= 2 {
		p *= 2
	}
	return s.depth%p == 0
}

// checkLeaks fails s with a leak error if goroutines other than the entry's
// are leaked (the entry goroutine blocked forever is a deadlock, reported
// when nothing can run).
func (s *State) checkLeaks() {
	leaked := s.leaked()
	for g := range s.gs.all() {
		if g.entry {
			delete(leaked, g.id)
		}
	}
	if len(leaked) > 0 {
		s.fail(s.leakError(leaked))
	}
}

// leaked returns the ids of the leaked goroutines of s: the blocked
// goroutines that the fixpoint below does not make live. Roots are the
// globals, the goroutines that can run, and the pending timers (their
// channels, functions and sleeping goroutines); a blocked goroutine
// becomes live when an object it waits on is reached.
func (s *State) leaked() map[int]bool {
	h := &hasher{h: fnvOffset, s: s, ids: map[ObjID]int{}}
	byID := make(map[int]*goroutine, s.gs.len())
	guardWaiters := map[ObjID][]*goroutine{}
	var pending []*goroutine
	for g := range s.gs.all() {
		byID[g.id] = g
		switch {
		case g.status == gDead:
		case g.status != gBlocked || g.wake != nil || s.guard(g),
			g.wait.kind == waitBubbleRun, g.wait.kind == waitBubbleWait:
			// (a synctest Run or Wait waits for goroutines, not for an
			// object: it is live, the goroutines it waits for are judged)
			pending = append(pending, g)
		case g.wait.kind != waitWake && g.wait.kind != waitForever:
			for _, p := range []Pointer{g.wait.ptr, g.wait.ptr2} {
				if p.Obj != 0 {
					guardWaiters[p.Obj] = append(guardWaiters[p.Obj], g)
				}
			}
		}
	}
	for _, tm := range s.timers {
		if g := byID[tm.g]; g != nil {
			pending = append(pending, g)
		}
		h.obj(tm.ch.Obj)
		h.obj(tm.id)
		if tm.fn != nil {
			h.value(tm.fn)
		}
	}
	for _, id := range s.m.allGlobals {
		h.obj(id)
	}
	parked := func(id int) {
		if g := byID[id]; g != nil && g.status == gBlocked && g.wait.kind == waitWake {
			pending = append(pending, g)
		}
	}
	live := map[int]bool{}
	for {
		for _, g := range pending {
			if !live[g.id] {
				live[g.id] = true
				h.stackRefs(g, false)
			}
		}
		pending = pending[:0]
		from := h.next
		h.drain()
		for _, id := range h.queue[from:] {
			pending = append(pending, guardWaiters[id]...)
			o := s.heap.get(id)
			if o == nil { // a dangling reference (hash.content)
				continue
			}
			if c := o.Chan; c != nil {
				for _, x := range c.recvq {
					parked(x.g)
				}
				for _, x := range c.sendq {
					parked(x.g)
				}
			}
			for c := range o.refCells() {
				if q, ok := c.(*condQueue); ok && q != nil {
					for _, x := range q.ids {
						parked(x)
					}
				}
			}
		}
		if len(pending) == 0 {
			break
		}
	}
	out := map[int]bool{}
	for g := range s.gs.all() {
		if g.status == gBlocked && !live[g.id] && g.wait.kind != waitCoro { // (natives_iter.go)
			out[g.id] = true
		}
	}
	return out
}

// stackRefs queues the objects goroutine g's stack refers to: with
// liveOnly, only through the registers live at each frame's position
// (liveness.go; all of an unwinding frame's), as the collector marks
// (natives_gc.go).
func (h *hasher) stackRefs(g *goroutine, liveOnly bool) {
	if w := g.wake; w != nil {
		h.value(w.val)
	}
	for p := g.panic; p != nil; p = p.link {
		h.value(p.val)
	}
	for f := g.top; f != nil; f = f.caller {
		for _, a := range f.contArgs {
			h.value(a)
		}
		h.value(f.rets)
		var live []int
		ok := false
		if liveOnly && f.fn != nil && f.block != nil && !f.unwinding {
			live, ok = f.fn.liveRegs(f.block.index, int(f.pc))
		}
		if ok {
			for _, r := range live {
				h.value(f.regs[r])
			}
		} else {
			for _, r := range f.regs {
				h.value(r)
			}
		}
		for d := f.defers; d != nil; d = d.next {
			h.value(d.fn)
			for _, a := range d.args {
				h.value(a)
			}
		}
	}
}
