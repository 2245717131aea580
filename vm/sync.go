package vm

// Native models of package sync. They keep their state in the cells of the
// user's sync values (so copying and hashing work as for any struct):
//
//	Mutex:     cell 0 = 1 while locked
//	RWMutex:   cell 0 = 1 while a writer holds or waits for the lock (new
//	           readers block), cell 1 = that writer's goroutine id,
//	           cell 4 = number of active readers
//	WaitGroup: cell 0 = counter
//	Once:      cell 0 = 1 when done, cell 1 = 1 while f runs
//	Cond:      cell 0 = L, cell 1 = queue of waiting goroutines (*condQueue)

func ptrArg(v Value) Pointer { p, _ := v.(Pointer); return p }

func (t *thread) cell(p Pointer, i int32) Value {
	return t.s.heap.get(p.Obj).Cells[p.Off+i]
}

func (t *thread) setCell(p Pointer, i int32, v Value) {
	t.s.heap.mut(p.Obj, t.s.epoch).Cells[p.Off+i] = v
}

func (t *thread) nilSync(fr *frame, p Pointer) (bool, ctl) {
	if p.Obj == 0 {
		return true, t.runtimePanic(fr, "invalid memory address or nil pointer dereference")
	}
	return false, ctlNext
}

func lockGuard(t *thread, args []Value) (bool, waitInfo) {
	p := ptrArg(args[0])
	if p.Obj == 0 {
		return true, waitInfo{}
	}
	return toInt64(t.cell(p, 0)) == 0, waitInfo{kind: waitCell0, reason: "sync.Mutex.Lock", ptr: p}
}

// mutexLock acquires the mutex at p or blocks (re-executed when unlocked).
func (t *thread) mutexLock(p Pointer, reason string) ctl {
	if toInt64(t.cell(p, 0)) != 0 {
		t.g.status = gBlocked
		t.g.wait = waitInfo{kind: waitCell0, reason: reason, ptr: p}
		return ctlBlock
	}
	t.setCell(p, 0, int32(1))
	t.raceAcquire(p.Obj)
	return ctlNext
}

func (t *thread) mutexUnlock(p Pointer) ctl {
	if toInt64(t.cell(p, 0)) == 0 {
		return t.fatal(t.g.top, KindFatal, "sync: unlock of unlocked mutex")
	}
	t.raceRelease(p.Obj)
	t.setCell(p, 0, int32(0))
	return ctlNext
}

func init() {
	nf := defVisible("(*sync.Mutex).Lock", func(t *thread, args []Value) (Value, ctl) {
		p := ptrArg(args[0])
		if bad, k := t.nilSync(t.g.top, p); bad {
			return nil, k
		}
		t.s.last.Op = "sync.Mutex.Lock"
		return nil, t.mutexLock(p, "sync.Mutex.Lock")
	})
	nf.guard = lockGuard
	defVisible("(*sync.Mutex).TryLock", func(t *thread, args []Value) (Value, ctl) {
		p := ptrArg(args[0])
		if toInt64(t.cell(p, 0)) != 0 {
			return false, ctlNext
		}
		t.setCell(p, 0, int32(1))
		t.raceAcquire(p.Obj)
		return true, ctlNext
	})
	defVisible("(*sync.Mutex).Unlock", func(t *thread, args []Value) (Value, ctl) {
		p := ptrArg(args[0])
		if bad, k := t.nilSync(t.g.top, p); bad {
			return nil, k
		}
		t.s.last.Op = "sync.Mutex.Unlock"
		return nil, t.mutexUnlock(p)
	})

	// RWMutex
	rl := defVisible("(*sync.RWMutex).RLock", func(t *thread, args []Value) (Value, ctl) {
		p := ptrArg(args[0])
		t.s.last.Op = "sync.RWMutex.RLock"
		if toInt64(t.cell(p, 0)) != 0 {
			t.g.status = gBlocked
			t.g.wait = waitInfo{kind: waitCell0, reason: "sync.RWMutex.RLock", ptr: p}
			return nil, ctlBlock
		}
		t.setCell(p, 4, int32(toInt64(t.cell(p, 4))+1))
		t.raceAcquire(p.Obj)
		return nil, ctlNext
	})
	rl.guard = func(t *thread, args []Value) (bool, waitInfo) {
		p := ptrArg(args[0])
		return toInt64(t.cell(p, 0)) == 0, waitInfo{kind: waitCell0, reason: "sync.RWMutex.RLock", ptr: p}
	}
	defVisible("(*sync.RWMutex).TryRLock", func(t *thread, args []Value) (Value, ctl) {
		p := ptrArg(args[0])
		if toInt64(t.cell(p, 0)) != 0 {
			return false, ctlNext
		}
		t.setCell(p, 4, int32(toInt64(t.cell(p, 4))+1))
		return true, ctlNext
	})
	defVisible("(*sync.RWMutex).RUnlock", func(t *thread, args []Value) (Value, ctl) {
		p := ptrArg(args[0])
		t.s.last.Op = "sync.RWMutex.RUnlock"
		n := toInt64(t.cell(p, 4))
		if n <= 0 {
			return nil, t.fatal(t.g.top, KindFatal, "sync: RUnlock of unlocked RWMutex")
		}
		t.raceReleaseMerge(p.Obj)
		t.setCell(p, 4, int32(n-1))
		return nil, ctlNext
	})
	wl := defVisible("(*sync.RWMutex).Lock", func(t *thread, args []Value) (Value, ctl) {
		p := ptrArg(args[0])
		t.s.last.Op = "sync.RWMutex.Lock"
		id := int64(t.g.id)
		if toInt64(t.cell(p, 0)) != 0 && toInt64(t.cell(p, 1)) != id {
			// another writer holds or waits
			t.g.status = gBlocked
			t.g.wait = waitInfo{kind: waitCell0, reason: "sync.Mutex.Lock", ptr: p} // behind another writer: Go waits in rw.w.Lock
			return nil, ctlBlock
		}
		// announce: new readers now block
		t.setCell(p, 0, int32(1))
		t.setCell(p, 1, uint32(id))
		if toInt64(t.cell(p, 4)) != 0 {
			t.g.status = gBlocked
			t.g.wait = waitInfo{kind: waitCell0, reason: "sync.RWMutex.Lock", ptr: Pointer{Obj: p.Obj, Off: p.Off + 4}}
			return nil, ctlBlock
		}
		t.setCell(p, 1, uint32(0x80000000|uint32(id))) // held
		t.raceAcquire(p.Obj)
		return nil, ctlNext
	})
	wl.guard = func(t *thread, args []Value) (bool, waitInfo) {
		p := ptrArg(args[0])
		return toInt64(t.cell(p, 0)) == 0, waitInfo{kind: waitCell0, reason: "sync.Mutex.Lock", ptr: p}
	}
	defVisible("(*sync.RWMutex).TryLock", func(t *thread, args []Value) (Value, ctl) {
		p := ptrArg(args[0])
		if toInt64(t.cell(p, 0)) != 0 || toInt64(t.cell(p, 4)) != 0 {
			return false, ctlNext
		}
		t.setCell(p, 0, int32(1))
		t.setCell(p, 1, uint32(0x80000000|uint32(t.g.id)))
		t.raceAcquire(p.Obj)
		return true, ctlNext
	})
	defVisible("(*sync.RWMutex).Unlock", func(t *thread, args []Value) (Value, ctl) {
		p := ptrArg(args[0])
		t.s.last.Op = "sync.RWMutex.Unlock"
		if toInt64(t.cell(p, 0)) == 0 {
			return nil, t.fatal(t.g.top, KindFatal, "sync: Unlock of unlocked RWMutex")
		}
		t.raceRelease(p.Obj)
		t.setCell(p, 0, int32(0))
		t.setCell(p, 1, uint32(0))
		return nil, ctlNext
	})

	// WaitGroup
	defVisible("(*sync.WaitGroup).Add", func(t *thread, args []Value) (Value, ctl) {
		return nil, t.wgAdd(ptrArg(args[0]), toInt64(args[1]))
	})
	defVisible("(*sync.WaitGroup).Done", func(t *thread, args []Value) (Value, ctl) {
		return nil, t.wgAdd(ptrArg(args[0]), -1)
	})
	wg := defVisible("(*sync.WaitGroup).Wait", func(t *thread, args []Value) (Value, ctl) {
		p := ptrArg(args[0])
		t.s.last.Op = "sync.WaitGroup.Wait"
		if toInt64(t.cell(p, 0)) != 0 {
			t.g.status = gBlocked
			t.g.wait = waitInfo{kind: waitWG, reason: "sync.WaitGroup.Wait", ptr: p}
			return nil, ctlBlock
		}
		t.raceAcquire(p.Obj)
		return nil, ctlNext
	})
	wg.guard = func(t *thread, args []Value) (bool, waitInfo) {
		p := ptrArg(args[0])
		return toInt64(t.cell(p, 0)) == 0, waitInfo{kind: waitWG, reason: "sync.WaitGroup.Wait", ptr: p}
	}
	defVisible("(*sync.WaitGroup).Go", func(t *thread, args []Value) (Value, ctl) {
		p := ptrArg(args[0])
		if k := t.wgAdd(p, 1); k != ctlNext {
			return nil, k
		}
		f, _ := args[1].(*Closure)
		done := &nativeFunc{name: "sync.WaitGroup.Go", fn: func(t *thread, _ []Value) (Value, ctl) {
			if _, k := t.syncCall(f, nil); !k && t.s.err != nil {
				return nil, ctlStop
			}
			return nil, t.wgAdd(p, -1)
		}}
		// Env makes the WaitGroup and f visible to the state hash and the
		// leak check's reachability
		t.spawn(t.g.top, &Closure{Native: done, Env: []Value{p, f}}, nil, runtimeFuncName(t.g.top.fn.ssa)+".gowrap1")
		return nil, ctlNext
	})

	// Once
	once := defVisible("(*sync.Once).Do", func(t *thread, args []Value) (Value, ctl) {
		p := ptrArg(args[0])
		t.s.last.Op = "sync.Once.Do"
		if toInt64(t.cell(p, 0)) != 0 {
			t.raceAcquire(p.Obj)
			return nil, ctlNext
		}
		if toInt64(t.cell(p, 1)) != 0 {
			t.g.status = gBlocked
			t.g.wait = waitInfo{kind: waitCell0, reason: "sync.Mutex.Lock", ptr: Pointer{Obj: p.Obj, Off: p.Off + 1}}
			return nil, ctlBlock
		}
		t.setCell(p, 1, int32(1))
		return nil, t.callCont(t.g.top, args[1], nil, func(t *thread, _ Value) ctl {
			t.setCell(p, 0, uint32(1))
			t.setCell(p, 1, int32(0))
			t.raceRelease(p.Obj)
			return t.ret(t.g.top, nil)
		})
	})
	once.guard = func(t *thread, args []Value) (bool, waitInfo) {
		p := ptrArg(args[0])
		return toInt64(t.cell(p, 1)) == 0, waitInfo{kind: waitCell0, reason: "sync.Mutex.Lock", ptr: Pointer{Obj: p.Obj, Off: p.Off + 1}}
	}

	// Cond
	def("sync.NewCond", func(t *thread, args []Value) (Value, ctl) {
		rt := t.m.condType()
		p := t.alloc(rt)
		t.setCell(p, 0, args[0])
		return p, ctlNext
	})
	defVisible("(*sync.Cond).Wait", func(t *thread, args []Value) (Value, ctl) {
		p := ptrArg(args[0])
		g := t.g
		if w := g.wake; w != nil || g.nstate == nstateRelock {
			// signalled: re-acquire L
			g.wake = nil
			g.nstate = nstateRelock
			k := t.lockerLock(p)
			if k == ctlNext {
				g.nstate = 0
			}
			return nil, k
		}
		t.s.last.Op = "sync.Cond.Wait"
		q, _ := t.cell(p, 1).(*condQueue)
		t.setCell(p, 1, q.push(g.id))
		if k := t.lockerUnlock(p); k != ctlNext {
			return nil, k
		}
		return nil, t.park("sync.Cond.Wait")
	})
	defVisible("(*sync.Cond).Signal", func(t *thread, args []Value) (Value, ctl) {
		p := ptrArg(args[0])
		t.s.last.Op = "sync.Cond.Signal"
		q, _ := t.cell(p, 1).(*condQueue)
		if id, rest, ok := q.pop(); ok {
			t.setCell(p, 1, rest)
			t.s.wakeG(id, &wakeInfo{})
			t.raceSync(p.Obj, id)
		}
		return nil, ctlNext
	})
	defVisible("(*sync.Cond).Broadcast", func(t *thread, args []Value) (Value, ctl) {
		p := ptrArg(args[0])
		t.s.last.Op = "sync.Cond.Broadcast"
		q, _ := t.cell(p, 1).(*condQueue)
		for {
			id, rest, ok := q.pop()
			if !ok {
				break
			}
			q = rest
			t.s.wakeG(id, &wakeInfo{})
			t.raceSync(p.Obj, id)
		}
		t.setCell(p, 1, (*condQueue)(nil))
		return nil, ctlNext
	})
}

const nstateRelock = 1

// lockerLock locks c.L of the Cond at p (a *Mutex or *RWMutex natively; any
// other Locker through its Lock method).
func (t *thread) lockerLock(p Pointer) ctl {
	l, _ := t.cell(p, 0).(Iface)
	if lp, ok := l.V.(Pointer); ok && l.T != nil {
		switch l.T.String() {
		case "*sync.Mutex":
			return t.mutexLock(lp, "sync.Mutex.Lock")
		case "*sync.RWMutex":
			_, k := nativeTable["(*sync.RWMutex).Lock"].fn(t, []Value{lp})
			return k
		}
	}
	if m := l.T.methodByName("Lock"); m != nil {
		if _, ok := t.syncCall(m, []Value{l.V}); ok {
			return ctlNext
		}
	}
	return t.unsupported(t.g.top, "sync.Cond with Locker "+l.T.String())
}

func (t *thread) lockerUnlock(p Pointer) ctl {
	l, _ := t.cell(p, 0).(Iface)
	if l.T == nil {
		return t.runtimePanic(t.g.top, "invalid memory address or nil pointer dereference")
	}
	if lp, ok := l.V.(Pointer); ok {
		switch l.T.String() {
		case "*sync.Mutex":
			return t.mutexUnlock(lp)
		case "*sync.RWMutex":
			_, k := nativeTable["(*sync.RWMutex).Unlock"].fn(t, []Value{lp})
			return k
		}
	}
	if m := l.T.methodByName("Unlock"); m != nil {
		if _, ok := t.syncCall(m, []Value{l.V}); ok {
			return ctlNext
		}
	}
	return t.unsupported(t.g.top, "sync.Cond with Locker "+l.T.String())
}

func (t *thread) wgAdd(p Pointer, delta int64) ctl {
	t.s.last.Op = "sync.WaitGroup.Add"
	n := toInt64(t.cell(p, 0)) + delta
	if n < 0 {
		return t.plainPanic(t.g.top, "sync: negative WaitGroup counter")
	}
	if delta < 0 {
		t.raceReleaseMerge(p.Obj)
	}
	t.setCell(p, 0, uint64(n))
	return ctlNext
}

// condQueue is the FIFO of goroutines waiting on a sync.Cond (immutable).
type condQueue struct {
	ids []int
}

func (q *condQueue) push(id int) *condQueue {
	var ids []int
	if q != nil {
		ids = append(ids, q.ids...)
	}
	return &condQueue{ids: append(ids, id)}
}

func (q *condQueue) pop() (int, *condQueue, bool) {
	if q == nil || len(q.ids) == 0 {
		return 0, nil, false
	}
	if len(q.ids) == 1 {
		return q.ids[0], nil, true
	}
	return q.ids[0], &condQueue{ids: q.ids[1:]}, true
}

func (q *condQueue) hashInto(h *hasher) {
	if q == nil {
		return
	}
	for _, id := range q.ids {
		h.int(int64(id))
	}
}
