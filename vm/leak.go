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

// leaked returns the ids of the leaked goroutines of s (which has no
// enabled goroutine).
func (s *State) leaked() map[int]bool {
	h := &hasher{h: fnvOffset, s: s, ids: map[ObjID]int{}}
	for _, id := range s.m.allGlobals {
		h.obj(id)
	}
	h.drain()
	live := map[int]bool{}
	for changed := true; changed; {
		changed = false
		for _, g := range s.gs {
			if live[g.id] || g.status == gDead {
				continue
			}
			if g.status == gBlocked && !s.guard(g) && !s.waitsOnMarked(g, h) {
				continue
			}
			live[g.id] = true
			h.stackRefs(g)
			h.drain()
			changed = true
		}
	}
	out := map[int]bool{}
	for _, g := range s.gs {
		if g.status == gBlocked && !live[g.id] {
			out[g.id] = true
		}
	}
	return out
}

// waitsOnMarked reports whether the primitive blocked goroutine g waits on
// is among the objects h has reached: the mutex, WaitGroup or Once cell of
// a guard, or a channel or Cond whose wait queue holds g.
func (s *State) waitsOnMarked(g *goroutine, h *hasher) bool {
	w := &g.wait
	switch w.kind {
	case waitForever:
		return false
	case waitWake:
		for id := range h.ids {
			o := s.heap.get(id)
			if o == nil {
				continue
			}
			if c := o.Chan; c != nil {
				for _, q := range [][]waiter{c.recvq, c.sendq} {
					for _, x := range q {
						if x.g == g.id {
							return true
						}
					}
				}
			}
			for _, c := range o.Cells {
				if q, ok := c.(*condQueue); ok && q != nil {
					for _, x := range q.ids {
						if x == g.id {
							return true
						}
					}
				}
			}
		}
		return false
	}
	_, a := h.ids[w.ptr.Obj]
	_, b := h.ids[w.ptr2.Obj]
	return (w.ptr.Obj != 0 && a) || (w.ptr2.Obj != 0 && b)
}

// stackRefs queues the objects goroutine g's stack refers to.
func (h *hasher) stackRefs(g *goroutine) {
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
		for _, r := range f.regs {
			h.value(r)
		}
		for d := f.defers; d != nil; d = d.next {
			h.value(d.fn)
			for _, a := range d.args {
				h.value(a)
			}
		}
	}
}
