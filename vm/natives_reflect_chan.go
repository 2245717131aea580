package vm

import (
	"go/types"
	"reflect"
)

// reflect.Value's channel operations: Send, Recv, TrySend, TryRecv and
// Close. Each is a channel operation of the goroutine, as the statement
// it stands for: Send and Recv are visible natives (scheduling points)
// that run as a reflect.Select of one case (natives_reflect_select.go) and
// park the goroutine the same way; TrySend and TryRecv add a default case;
// Close is close. A nil channel blocks forever, as in Go. Their panics are
// reflect's (a Value of another kind, a send-only channel received from,
// a value not assignable to the element type).

// reflectChanCase builds the one case of a channel operation on v; msg is
// reflect's panic when v is not a channel usable in direction dir.
func (t *thread) reflectChanCase(v rvalue, dir reflect.SelectDir, method string) (c rselCase, msg string) {
	if v.rt == nil {
		return c, "reflect: call of reflect.Value." + method + " on zero Value"
	}
	ct, ok := v.rt.T.Underlying().(*types.Chan)
	if !ok {
		return c, "reflect: call of reflect.Value." + method + " on " + kindName(v.kind()) + " Value"
	}
	if v.flag&rflagRO != 0 {
		return c, "reflect: reflect.Value." + method + " using value obtained using unexported field"
	}
	if dir == reflect.SelectRecv && ct.Dir() == types.SendOnly {
		return c, "reflect: recv on send-only channel"
	}
	if dir == reflect.SelectSend && ct.Dir() == types.RecvOnly {
		return c, "reflect: send on recv-only channel"
	}
	c.dir, c.elem = dir, v.rt.Elem
	c.ch, _ = t.rload(v).(Chan)
	return c, ""
}

// reflectChanRecv is Recv (nonblock false) or TryRecv: (x Value, ok bool).
func reflectChanRecv(t *thread, args []Value, nonblock bool, method string) (Value, ctl) {
	c, msg := t.reflectChanCase(unpackValue(args[0]), reflect.SelectRecv, method)
	if msg != "" {
		return nil, t.stringPanic(msg)
	}
	cases := []rselCase{c}
	if nonblock {
		cases = append(cases, rselCase{dir: reflect.SelectDefault})
	}
	k, v, ok, kc := t.runReflectCases(cases)
	if kc != ctlNext {
		t.chanWaitReason(c, "chan receive")
		return nil, kc
	}
	if k != 0 { // TryRecv: nothing to receive
		return Tuple{packValue(rvalue{}), false}, ctlNext
	}
	return Tuple{packValue(t.newRValue(c.elem, v, 0)), ok}, ctlNext
}

// reflectChanSend is Send (nonblock false, no result) or TrySend (bool).
func reflectChanSend(t *thread, args []Value, nonblock bool, method string) (Value, ctl) {
	c, msg := t.reflectChanCase(unpackValue(args[0]), reflect.SelectSend, method)
	if msg != "" {
		return nil, t.stringPanic(msg)
	}
	x := unpackValue(args[1])
	if x.flag&rflagRO != 0 {
		return nil, t.stringPanic("reflect: reflect.Value." + method + " using value obtained using unexported field")
	}
	val, ok := t.assignValue(x, c.elem)
	if !ok {
		what := "zero Value"
		if x.rt != nil {
			what = "value of type " + x.rt.T.String()
		}
		return nil, t.stringPanic("reflect.Value." + method + ": " + what + " is not assignable to type " + c.elem.T.String())
	}
	c.send = val
	cases := []rselCase{c}
	if nonblock {
		cases = append(cases, rselCase{dir: reflect.SelectDefault})
	}
	k, _, _, kc := t.runReflectCases(cases)
	if kc != ctlNext {
		t.chanWaitReason(c, "chan send")
		return nil, kc
	}
	if nonblock {
		return k == 0, ctlNext
	}
	return nil, ctlNext
}

// chanWaitReason names the wait of a goroutine parked by a one-case
// operation as the runtime does ("chan receive", "chan send (nil chan)").
func (t *thread) chanWaitReason(c rselCase, reason string) {
	if t.g.status != gBlocked {
		return
	}
	if c.ch.Obj == 0 {
		reason += " (nil chan)"
	}
	t.g.wait.reason = reason
}

func nativeReflectValueRecv(t *thread, args []Value) (Value, ctl) {
	return reflectChanRecv(t, args, false, "Recv")
}

func nativeReflectValueTryRecv(t *thread, args []Value) (Value, ctl) {
	return reflectChanRecv(t, args, true, "TryRecv")
}

func nativeReflectValueSend(t *thread, args []Value) (Value, ctl) {
	return reflectChanSend(t, args, false, "Send")
}

func nativeReflectValueTrySend(t *thread, args []Value) (Value, ctl) {
	return reflectChanSend(t, args, true, "TrySend")
}

// nativeReflectValueClose is Value.Close: close of the channel v holds.
func nativeReflectValueClose(t *thread, args []Value) (Value, ctl) {
	v := unpackValue(args[0])
	if v.rt == nil {
		return nil, t.stringPanic("reflect: call of reflect.Value.Close on zero Value")
	}
	ct, ok := v.rt.T.Underlying().(*types.Chan)
	if !ok {
		return nil, t.stringPanic("reflect: call of reflect.Value.Close on " + kindName(v.kind()) + " Value")
	}
	if ct.Dir() == types.RecvOnly {
		return nil, t.stringPanic("reflect: close of receive-only channel")
	}
	ch, _ := t.rload(v).(Chan)
	return nil, t.closeChan(t.g.top, ch)
}

func init() {
	defVisible("(reflect.Value).Recv", nativeReflectValueRecv)
	defVisible("(reflect.Value).TryRecv", nativeReflectValueTryRecv)
	defVisible("(reflect.Value).Send", nativeReflectValueSend)
	defVisible("(reflect.Value).TrySend", nativeReflectValueTrySend)
	def("(reflect.Value).Close", nativeReflectValueClose) // close is its own scheduling point (closeChan)
}
