package vm

import (
	"go/types"
	"sync/atomic"

	"golang.org/x/tools/go/ssa"
)

// chanData is a channel: a FIFO buffer and the queues of goroutines parked
// in send and receive operations (the runtime's sudogs), in arrival order.
type chanData struct {
	cap int
	// buf is this state's view of a buffer array shared with the states
	// the channel was copied from (see push): a receive reslices it, a
	// send writes past its end only if no other view has done so.
	buf    []Value
	bufArr *bufArray
	closed bool
	recvq  []waiter
	sendq  []waiter
	// race detector (race_chan.go): the buffer slots of the next send and
	// receive (counted modulo cap) and the clock of each slot (immutable).
	sendx, recvx int
	slots        []vclock
}

// advance moves a buffer index to the next slot.
func (c *chanData) advance(x *int) {
	if *x++; *x >= c.cap {
		*x = 0
	}
}

// bufArray is the array behind channel buffers shared between states.
// used is the number of its slots written (by any state); a view may
// append in place only at slot used, so no view ever sees a slot change.
type bufArray struct {
	size int // the array's capacity
	used atomic.Int64
}

// push appends v to the buffer: in place when the view ends at the last
// written slot of its array (claimed atomically: the states of parallel
// searches share arrays), else into a fresh array.
func (c *chanData) push(v Value) {
	n := len(c.buf)
	if a := c.bufArr; a != nil && n < cap(c.buf) {
		end := int64(a.size - cap(c.buf) + n) // the view's end, from the array's start
		if a.used.CompareAndSwap(end, end+1) {
			c.buf = c.buf[:n+1]
			c.buf[n] = v
			return
		}
	}
	size := max(2*n, 8, min(c.cap, 1024))
	arr := make([]Value, n+1, size)
	copy(arr, c.buf)
	arr[n] = v
	a := &bufArray{size: size}
	a.used.Store(int64(n + 1))
	c.buf, c.bufArr = arr, a
}

// waiter is a goroutine parked on a channel, possibly as one case of a select.
type waiter struct {
	g   int
	cas int   // select case index, -1 for a plain send/receive
	val Value // the value a sender offers
}

func (c *chanData) clone() *chanData {
	n := *c // buf is shared (see push)
	n.recvq = append([]waiter(nil), c.recvq...)
	n.sendq = append([]waiter(nil), c.sendq...)
	return &n
}

func (c *compiler) makeChan(in *ssa.MakeChan) op {
	rt := c.rt(in.Type())
	size, dst := c.reg(in.Size), c.reg(in)
	open := c.m.neverClosed(in) // its sends need no race memory (byvalue.go)
	return func(t *thread, fr *frame) ctl {
		n := toInt64(fr.regs[size])
		if n < 0 || n > maxObjectCells {
			return t.runtimePanic(fr, "makechan: size out of range")
		}
		id := t.newObject(&Object{kind: objChan, T: rt, Chan: &chanData{cap: int(n)}, readOnly: open})
		fr.regs[dst] = Chan{Obj: id}
		return ctlNext
	}
}

// dequeue removes and returns the first waiter of q whose goroutine is
// still waiting (a select may have been completed through another channel).
func (s *State) dequeue(q *[]waiter) (waiter, bool) {
	for len(*q) > 0 {
		w := (*q)[0]
		*q = (*q)[1:]
		g := s.getG(w.g)
		if g != nil && g.status == gBlocked && g.wake == nil && g.wait.kind == waitWake {
			return w, true
		}
	}
	return waiter{}, false
}

// hasWaiter reports whether q holds a goroutine still waiting.
func (s *State) hasWaiter(q []waiter) bool {
	for _, w := range q {
		g := s.getG(w.g)
		if g != nil && g.status == gBlocked && g.wake == nil && g.wait.kind == waitWake {
			return true
		}
	}
	return false
}

// wakeG completes a parked goroutine's operation.
func (s *State) wakeG(id int, w *wakeInfo) {
	g := s.mutG(id)
	g.wake = w
	s.runnext = id
}

// park blocks the running goroutine until a partner wakes it.
func (t *thread) park(reason string) ctl {
	t.g.status = gBlocked
	t.g.wait = waitInfo{kind: waitWake, reason: reason}
	return ctlBlock
}

// trySend attempts a send without blocking; done is false if it would block.
func (t *thread) trySend(fr *frame, ch Chan, v Value) (done bool, k ctl) {
	t.chanAccess(fr, ch, false)
	o := t.s.heap.mut(ch.Obj, t.s.epoch)
	c := o.Chan
	if c.closed {
		return true, t.plainPanic(fr, "send on closed channel")
	}
	if w, ok := t.s.dequeue(&c.recvq); ok {
		t.s.wakeG(w.g, &wakeInfo{cas: w.cas, val: v, ok: true})
		t.noteSync(SyncWake, ch.Obj, w.g)
		if c.cap == 0 {
			t.chanRendezvous(ch.Obj, c, w.g)
		} else { // the buffer is empty: the value passes through slot recvx
			if c.cap == 1 {
				t.chanLockOp(t.g, ch.Obj)
				t.chanLockOp(t.s.mutG(w.g), ch.Obj)
			}
			t.slotNotify(ch.Obj, c, c.recvx, 0)
			t.slotNotify(ch.Obj, c, c.recvx, w.g)
			c.advance(&c.recvx)
			c.sendx = c.recvx
		}
		return true, ctlNext
	}
	if len(c.buf) < c.cap {
		c.push(v)
		t.noteSync(SyncRelease, ch.Obj, 0)
		if c.cap == 1 {
			t.chanLockOp(t.g, ch.Obj)
		}
		t.slotNotify(ch.Obj, c, c.sendx, 0)
		c.advance(&c.sendx)
		return true, ctlNext
	}
	return false, ctlNext
}

// tryRecv attempts a receive without blocking.
func (t *thread) tryRecv(ch Chan, zero Value) (v Value, ok, done bool) {
	o := t.s.heap.mut(ch.Obj, t.s.epoch)
	c := o.Chan
	if len(c.buf) > 0 {
		v = c.buf[0]
		c.buf = c.buf[1:]
		t.noteSync(SyncAcquire, ch.Obj, 0)
		t.slotNotify(ch.Obj, c, c.recvx, 0)
		if c.cap == 1 {
			t.chanLockOp(t.g, ch.Obj)
		}
		if w, ok := t.s.dequeue(&c.sendq); ok {
			if c.cap == 1 {
				t.chanLockOp(t.s.mutG(w.g), ch.Obj)
			}
			// the buffer was full: the sender's value takes the freed slot
			c.push(w.val)
			t.s.wakeG(w.g, &wakeInfo{cas: w.cas, ok: true})
			t.slotNotify(ch.Obj, c, c.recvx, w.g)
			c.advance(&c.sendx)
		}
		c.advance(&c.recvx)
		return v, true, true
	}
	if w, ok := t.s.dequeue(&c.sendq); ok {
		t.s.wakeG(w.g, &wakeInfo{cas: w.cas, ok: true})
		t.noteSync(SyncTake, 0, w.g)
		t.chanRendezvous(ch.Obj, c, w.g)
		return w.val, true, true
	}
	if c.closed {
		t.chanAcquireClose(ch.Obj, 0)
		return zero, false, true
	}
	return nil, false, false
}

func (c *compiler) send(in *ssa.Send) op {
	ch, x := c.reg(in.Chan), c.reg(in.X)
	hasRefs := c.rt(in.X.Type()).hasPointers()
	return func(t *thread, fr *frame) ctl {
		if w := t.g.wake; w != nil { // completed by a receiver (or close)
			t.g.wake = nil
			t.visible = true
			t.s.last.Op = "chan send"
			if w.closed {
				return t.plainPanic(fr, "send on closed channel")
			}
			return ctlNext
		}
		if t.yieldBefore() {
			return ctlYield
		}
		t.s.last.Op = "chan send"
		chv := fr.regs[ch].(Chan)
		t.touch(chv.Obj, true)
		if chv.Obj == 0 {
			t.g.status = gBlocked
			t.g.wait = waitInfo{kind: waitForever, reason: "chan send (nil chan)"}
			return ctlBlock
		}
		v := fr.regs[x]
		if hasRefs {
			t.share(v)
		}
		if done, k := t.trySend(fr, chv, v); done {
			return k
		}
		c := t.s.heap.mut(chv.Obj, t.s.epoch).Chan
		c.sendq = append(c.sendq, waiter{g: t.g.id, cas: -1, val: v})
		return t.park("chan send")
	}
}

func (c *compiler) recv(in *ssa.UnOp) op {
	ch, dst := c.reg(in.X), c.reg(in)
	zero := c.rt(in.X.Type().Underlying().(*types.Chan).Elem()).Zero()
	commaOk := in.CommaOk
	result := func(fr *frame, v Value, ok bool) {
		if commaOk {
			fr.regs[dst] = Tuple{v, ok}
		} else {
			fr.regs[dst] = v
		}
	}
	return func(t *thread, fr *frame) ctl {
		if w := t.g.wake; w != nil {
			t.g.wake = nil
			t.visible = true
			t.s.last.Op = "chan receive"
			v := w.val
			if !w.ok {
				v = zero
			}
			result(fr, v, w.ok)
			return ctlNext
		}
		if t.yieldBefore() {
			return ctlYield
		}
		t.s.last.Op = "chan receive"
		chv := fr.regs[ch].(Chan)
		t.touch(chv.Obj, true)
		if chv.Obj == 0 {
			t.g.status = gBlocked
			t.g.wait = waitInfo{kind: waitForever, reason: "chan receive (nil chan)"}
			return ctlBlock
		}
		if v, ok, done := t.tryRecv(chv, zero); done {
			result(fr, v, ok)
			return ctlNext
		}
		c := t.s.heap.mut(chv.Obj, t.s.epoch).Chan
		c.recvq = append(c.recvq, waiter{g: t.g.id, cas: -1})
		return t.park("chan receive")
	}
}

// closeChan implements close(ch).
func (t *thread) closeChan(fr *frame, ch Chan) ctl {
	if t.yieldBefore() {
		return ctlYield
	}
	t.s.last.Op = "chan close"
	t.touch(ch.Obj, true)
	if ch.Obj == 0 {
		return t.plainPanic(fr, "close of nil channel")
	}
	c := t.s.heap.mut(ch.Obj, t.s.epoch).Chan
	if c.closed {
		return t.plainPanic(fr, "close of closed channel")
	}
	t.chanAccess(fr, ch, true)
	c.closed = true
	t.raceRelease(Pointer{Obj: ch.Obj})
	for {
		w, ok := t.s.dequeue(&c.recvq)
		if !ok {
			break
		}
		t.s.wakeG(w.g, &wakeInfo{cas: w.cas, ok: false})
		t.chanAcquireClose(ch.Obj, w.g)
	}
	for {
		w, ok := t.s.dequeue(&c.sendq)
		if !ok {
			break
		}
		t.s.wakeG(w.g, &wakeInfo{cas: w.cas, closed: true})
		t.chanAcquireClose(ch.Obj, w.g)
	}
	return ctlNext
}
