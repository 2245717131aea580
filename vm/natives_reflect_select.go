package vm

import (
	"go/types"
	"reflect"

	"golang.org/x/tools/go/ssa"
)

// reflect.Select: a select statement whose cases are built at run time.
// It is a scheduling point like select: a call of reflect.Select counts as
// a select instruction of its block (compile.go), so a goroutine about to
// call it with several ready cases offers one choice per ready case
// (readySelectCases), and it blocks on every case's channel at once when
// none is ready and there is no default case. Its panics are reflect's.

// reflectSelectSite is the compiled form of a call of reflect.Select: the
// register of its cases argument.
type reflectSelectSite struct{ arg int }

// isReflectSelect reports whether in calls reflect.Select.
func isReflectSelect(in ssa.Instruction) (*ssa.Call, bool) {
	call, ok := in.(*ssa.Call)
	if !ok {
		return nil, false
	}
	f := call.Call.StaticCallee()
	return call, f != nil && f.Pkg != nil && f.Pkg.Pkg.Path() == "reflect" && f.Name() == "Select" && len(call.Call.Args) == 1
}

// rselCase is a case of reflect.Select, read from its reflect.SelectCase.
type rselCase struct {
	dir  reflect.SelectDir
	ch   Chan   // zero: the case is ignored (a zero Value or a nil channel)
	elem *RType // the channel's element type
	send Value  // the value a send case sends
}

// reflectSelectCases reads the []reflect.SelectCase sl; msg is the panic
// of reflect.Select for an invalid case ("" if none).
func (s *State) reflectSelectCases(sl Slice) (cases []rselCase, msg string) {
	rt := s.m.lookupType("reflect", "SelectCase")
	if rt == nil || len(rt.Fields) != 3 {
		return nil, "reflect.Select without package reflect's types"
	}
	hasDefault := false
	for i := 0; i < sl.Len; i++ {
		cells, _ := s.sliceElem(sl, rt, i).([]Value)
		if len(cells) != rt.Size {
			return nil, "reflect.Select: malformed case"
		}
		c := rselCase{dir: reflect.SelectDir(toInt64(cells[rt.Fields[0]]))}
		chv := unpackValue(append([]Value(nil), cells[rt.Fields[1]:rt.Fields[1]+3]...))
		sendv := unpackValue(append([]Value(nil), cells[rt.Fields[2]:rt.Fields[2]+3]...))
		switch c.dir {
		case reflect.SelectDefault:
			if hasDefault {
				return nil, "reflect.Select: multiple default cases"
			}
			hasDefault = true
			if chv.rt != nil {
				return nil, "reflect.Select: default case has Chan value"
			}
			if sendv.rt != nil {
				return nil, "reflect.Select: default case has Send value"
			}
		case reflect.SelectSend, reflect.SelectRecv:
			if c.dir == reflect.SelectRecv && sendv.rt != nil {
				return nil, "reflect.Select: RecvDir case has Send value"
			}
			if chv.rt == nil {
				break // ignored
			}
			ct, ok := chv.rt.T.Underlying().(*types.Chan)
			if !ok {
				return nil, "reflect: call of reflect.Value.Select on " + kindName(chv.kind()) + " Value"
			}
			c.elem = chv.rt.Elem
			c.ch, _ = s.readCells(chv.ptr, chv.rt).(Chan)
			if c.dir == reflect.SelectRecv {
				if ct.Dir() == types.SendOnly {
					return nil, "reflect.Select: RecvDir case using send-only channel"
				}
				break
			}
			if ct.Dir() == types.RecvOnly {
				return nil, "reflect.Select: SendDir case using recv-only channel"
			}
			if sendv.rt == nil {
				return nil, "reflect.Select: SendDir case missing Send value"
			}
			if !types.AssignableTo(sendv.rt.T, ct.Elem()) {
				return nil, "reflect.Select: value of type " + sendv.rt.T.String() + " is not assignable to type " + ct.Elem().String()
			}
			v := s.readCells(sendv.ptr, sendv.rt)
			if types.IsInterface(ct.Elem()) && !types.IsInterface(sendv.rt.T) {
				v = Iface{T: sendv.rt, V: v}
			}
			c.send = v
		default:
			return nil, "reflect.Select: invalid Dir"
		}
		cases = append(cases, c)
	}
	return cases, ""
}

// readyReflectCases appends the indexes of the cases that can proceed now.
func (s *State) readyReflectCases(ready []int, cases []rselCase) []int {
	for i, c := range cases {
		if c.ch.Obj == 0 {
			continue
		}
		ch := s.heap.get(c.ch.Obj).Chan
		switch c.dir {
		case reflect.SelectSend:
			if ch.closed || s.hasWaiter(ch.recvq) || len(ch.buf) < ch.cap {
				ready = append(ready, i)
			}
		case reflect.SelectRecv:
			if len(ch.buf) > 0 || s.hasWaiter(ch.sendq) || ch.closed {
				ready = append(ready, i)
			}
		}
	}
	return ready
}

// readyReflectSelect is readySelectCases for goroutine g about to call
// reflect.Select at site.
func (s *State) readyReflectSelect(buf []int, fr *frame, site *reflectSelectSite) []int {
	sl, _ := fr.regs[site.arg].(Slice)
	cases, msg := s.reflectSelectCases(sl)
	if msg != "" {
		return nil
	}
	return s.readyReflectCases(buf, cases)
}

func init() {
	defVisible("reflect.Select", reflectSelect)
}

// reflectSelect is reflect.Select(cases): (chosen, recv, recvOK).
func reflectSelect(t *thread, args []Value) (Value, ctl) {
	sl, _ := args[0].(Slice)
	cases, msg := t.s.reflectSelectCases(sl)
	if msg != "" {
		return nil, t.stringPanic(msg)
	}
	k, v, ok, kc := t.runReflectCases(cases)
	if kc != ctlNext {
		return nil, kc
	}
	rv := packValue(rvalue{})
	if cases[k].dir == reflect.SelectRecv {
		rv = packValue(t.newRValue(cases[k].elem, v, 0))
	}
	return Tuple{k, rv, ok}, ctlNext
}

// runReflectCases runs a select over cases for the running goroutine (a
// visible native, called again when a partner wakes it): the index of
// the case that proceeded, the value received and whether it came from a
// send; ctlBlock when the goroutine parks; a panic when a send case's
// channel is closed.
func (t *thread) runReflectCases(cases []rselCase) (k int, v Value, ok bool, kc ctl) {
	if w := t.g.wake; w != nil { // a partner completed case w.cas
		t.g.wake = nil
		t.visible = true
		t.s.last.Op = "select"
		t.unqueueReflectSelect(cases)
		c := &cases[w.cas]
		if c.dir == reflect.SelectSend {
			if w.closed {
				return 0, nil, false, t.plainPanic(t.g.top, "send on closed channel")
			}
			return w.cas, nil, false, ctlNext
		}
		v := w.val
		if !w.ok {
			v = c.elem.Zero()
		}
		return w.cas, v, w.ok, ctlNext
	}
	t.s.last.Op = "select"
	for _, c := range cases {
		if c.ch.Obj != 0 {
			t.touch(c.ch.Obj, true)
		}
	}
	var buf [8]int
	if ready := t.s.readyReflectCases(buf[:0], cases); len(ready) > 0 {
		k := ready[0]
		if t.selCase >= 0 {
			k = t.selCase
			t.selCase = -1
		}
		c := &cases[k]
		if c.dir == reflect.SelectSend {
			t.share(c.send)
			if _, kc := t.trySend(t.g.top, c.ch, c.send); kc != ctlNext {
				return 0, nil, false, kc
			}
			return k, nil, false, ctlNext
		}
		v, ok, _ := t.tryRecv(c.ch, c.elem.Zero())
		return k, v, ok, ctlNext
	}
	for i, c := range cases {
		if c.dir == reflect.SelectDefault {
			t.polled = true
			return i, nil, false, ctlNext
		}
	}
	parked := false
	for i, c := range cases {
		if c.ch.Obj == 0 {
			continue
		}
		ch := t.s.heap.mut(c.ch.Obj, t.s.epoch).Chan
		if c.dir == reflect.SelectSend {
			t.share(c.send)
			ch.sendq = append(ch.sendq, waiter{g: t.g.id, cas: i, val: c.send})
		} else {
			ch.recvq = append(ch.recvq, waiter{g: t.g.id, cas: i})
		}
		parked = true
	}
	if !parked {
		t.g.status = gBlocked
		t.g.wait = waitInfo{kind: waitForever, reason: "select (no cases)"}
		return 0, nil, false, ctlBlock
	}
	return 0, nil, false, t.park("select")
}

// unqueueReflectSelect removes the running goroutine from the queues of
// the cases' channels.
func (t *thread) unqueueReflectSelect(cases []rselCase) {
	id := t.g.id
	for _, c := range cases {
		if c.ch.Obj == 0 {
			continue
		}
		o := t.s.heap.get(c.ch.Obj)
		if !inQueue(o.Chan.recvq, id) && !inQueue(o.Chan.sendq, id) {
			continue
		}
		ch := t.s.heap.mut(c.ch.Obj, t.s.epoch).Chan
		ch.recvq = without(ch.recvq, id)
		ch.sendq = without(ch.sendq, id)
	}
}
