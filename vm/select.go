package vm

import (
	"go/types"
	"slices"

	"golang.org/x/tools/go/ssa"
)

// selectInfo is the compiled form of a select statement.
type selectInfo struct {
	chans    []int   // register of each case's channel
	sends    []int   // register of the value sent (-1 for receive cases)
	zeros    []Value // zero value of each receive case's element
	blocking bool
}

func (c *compiler) selectOp(in *ssa.Select) op {
	si := &selectInfo{blocking: in.Blocking}
	for _, st := range in.States {
		si.chans = append(si.chans, c.reg(st.Chan))
		if st.Dir == types.SendOnly {
			si.sends = append(si.sends, c.reg(st.Send))
			si.zeros = append(si.zeros, nil)
		} else {
			si.sends = append(si.sends, -1)
			si.zeros = append(si.zeros, c.rt(st.Chan.Type().Underlying().(*types.Chan).Elem()).Zero())
		}
	}
	dst := c.reg(in)
	c.m.selects.Store(in, si)
	nrecv := 0
	for _, s := range si.sends {
		if s < 0 {
			nrecv++
		}
	}
	result := func(fr *frame, idx int, v Value, ok bool) {
		tup := make(Tuple, 2+nrecv)
		tup[0], tup[1] = idx, ok
		r := 0
		for i, s := range si.sends {
			if s >= 0 {
				continue
			}
			if i == idx {
				tup[2+r] = v
			} else {
				tup[2+r] = si.zeros[i]
			}
			r++
		}
		fr.regs[dst] = tup
	}
	return func(t *thread, fr *frame) ctl {
		if w := t.g.wake; w != nil {
			t.g.wake = nil
			t.visible = true
			t.s.last.Op = "select"
			t.unqueueSelect(fr, si)
			if si.sends[w.cas] >= 0 {
				if w.closed {
					return t.plainPanic(fr, "send on closed channel")
				}
				result(fr, w.cas, nil, false)
				return ctlNext
			}
			v := w.val
			if !w.ok {
				v = si.zeros[w.cas]
			}
			result(fr, w.cas, v, w.ok)
			return ctlNext
		}
		if t.yieldBefore() {
			return ctlYield
		}
		t.s.last.Op = "select"
		for _, r := range si.chans {
			t.touch(fr.regs[r].(Chan).Obj, true)
		}
		var buf [8]int
		ready := readyCases(buf[:0], t.s, fr, si)
		if len(ready) > 0 {
			k := ready[0]
			if t.selCase >= 0 {
				k = t.selCase
				t.selCase = -1
			}
			ch := fr.regs[si.chans[k]].(Chan)
			if si.sends[k] >= 0 {
				v := fr.regs[si.sends[k]]
				t.share(v)
				_, kc := t.trySend(fr, ch, v)
				if kc != ctlNext {
					return kc
				}
				result(fr, k, nil, false)
				return ctlNext
			}
			v, ok, _ := t.tryRecv(ch, si.zeros[k])
			result(fr, k, v, ok)
			return ctlNext
		}
		if !si.blocking {
			t.polled = true
			result(fr, -1, nil, false)
			return ctlNext
		}
		parked := false
		for i, r := range si.chans {
			ch := fr.regs[r].(Chan)
			if ch.Obj == 0 {
				continue
			}
			c := t.s.heap.mut(ch.Obj, t.s.epoch).Chan
			if si.sends[i] >= 0 {
				c.sendq = append(c.sendq, waiter{g: t.g.id, cas: i, val: fr.regs[si.sends[i]]})
			} else {
				c.recvq = append(c.recvq, waiter{g: t.g.id, cas: i})
			}
			parked = true
		}
		if !parked {
			t.g.status = gBlocked
			reason := "select"
			if len(si.chans) == 0 {
				reason = "select (no cases)"
			}
			t.g.wait = waitInfo{kind: waitForever, reason: reason}
			return ctlBlock
		}
		return t.park("select")
	}
}

// unqueueSelect removes the running goroutine from the queues of a select's channels.
func (t *thread) unqueueSelect(fr *frame, si *selectInfo) {
	id := t.g.id
	for _, r := range si.chans {
		ch := fr.regs[r].(Chan)
		if ch.Obj == 0 {
			continue
		}
		o := t.s.heap.get(ch.Obj)
		if !inQueue(o.Chan.recvq, id) && !inQueue(o.Chan.sendq, id) {
			continue
		}
		c := t.s.heap.mut(ch.Obj, t.s.epoch).Chan
		c.recvq = without(c.recvq, id)
		c.sendq = without(c.sendq, id)
	}
}

func inQueue(q []waiter, id int) bool {
	for _, w := range q {
		if w.g == id {
			return true
		}
	}
	return false
}

func without(q []waiter, id int) []waiter {
	out := q[:0:0]
	for _, w := range q {
		if w.g != id {
			out = append(out, w)
		}
	}
	return out
}

// readyCases lists the cases of a select that can proceed now.
func readyCases(ready []int, s *State, fr *frame, si *selectInfo) []int {
	for i, r := range si.chans {
		ch := fr.regs[r].(Chan)
		if ch.Obj == 0 {
			continue
		}
		c := s.heap.get(ch.Obj).Chan
		if si.sends[i] >= 0 {
			if c.closed || s.hasWaiter(c.recvq) || len(c.buf) < c.cap {
				ready = append(ready, i)
			}
		} else if len(c.buf) > 0 || s.hasWaiter(c.sendq) || c.closed {
			ready = append(ready, i)
		}
	}
	return ready
}

// topIsSelect reports whether g's next instruction is a select.
func (g *goroutine) topIsSelect() bool {
	fr := g.top
	return fr != nil && fr.fn != nil && !fr.unwinding && int(fr.pc) < len(fr.block.code) && slices.Contains(fr.block.selects, int(fr.pc))
}

// readySelectCases returns the ready cases of goroutine g's pending select
// (nil if its next instruction is not a select), appended to buf.
func (m *Machine) readySelectCases(buf []int, s *State, g *goroutine) []int {
	if !g.atSelect {
		return nil
	}
	fr := g.top
	in := fr.block.ssa.Instrs[fr.block.first+int(fr.pc)]
	v, ok := m.selects.Load(in)
	if !ok {
		return nil
	}
	switch si := v.(type) {
	case *selectInfo:
		return readyCases(buf, s, fr, si)
	case *reflectSelectSite:
		return s.readyReflectSelect(buf, fr, si)
	}
	return nil
}
