// Package reflectselect selects with reflect.Select: over channels known
// only at run time, blocking until a partner comes, with a default case,
// with several cases ready (either may be chosen), and with an invalid
// case. Under go test -race, TestSelectReady fails in some runs (when the
// second case is chosen), TestFailsInvalidDir always, the others pass.
package reflectselect

import (
	"reflect"
	"testing"
	"time"
)

func cases(dir reflect.SelectDir, chans ...any) []reflect.SelectCase {
	var cs []reflect.SelectCase
	for _, ch := range chans {
		cs = append(cs, reflect.SelectCase{Dir: dir, Chan: reflect.ValueOf(ch)})
	}
	return cs
}

// The select blocks until a goroutine sends on the second channel.
func TestSelectBlocks(t *testing.T) {
	a, b := make(chan int), make(chan string)
	go func() {
		time.Sleep(time.Millisecond)
		b <- "x"
	}()
	i, v, ok := reflect.Select(cases(reflect.SelectRecv, a, b))
	if i != 1 || v.String() != "x" || !ok {
		t.Fatalf("chose %d %v %v", i, v, ok)
	}
}

// A closed channel's case receives the zero value with ok false; a send
// case with no receiver waits while the default case is taken.
func TestSelectClosedAndDefault(t *testing.T) {
	c := make(chan int)
	close(c)
	i, v, ok := reflect.Select(cases(reflect.SelectRecv, nil, c))
	if i != 1 || v.Int() != 0 || ok {
		t.Fatalf("chose %d %v %v", i, v, ok)
	}
	u := make(chan int)
	send := reflect.SelectCase{Dir: reflect.SelectSend, Chan: reflect.ValueOf(u), Send: reflect.ValueOf(7)}
	if i, _, _ := reflect.Select([]reflect.SelectCase{send, {Dir: reflect.SelectDefault}}); i != 1 {
		t.Fatalf("chose %d, want the default", i)
	}
	done := make(chan int)
	go func() { done <- <-u }()
	if i, _, _ := reflect.Select([]reflect.SelectCase{send}); i != 0 || <-done != 7 {
		t.Fatal("the send did not reach the receiver")
	}
}

// Both cases are ready: either may be chosen (the test assumes the first).
func TestSelectReady(t *testing.T) {
	a, b := make(chan int, 1), make(chan int, 1)
	a <- 1
	b <- 2
	i, v, _ := reflect.Select(cases(reflect.SelectRecv, a, b))
	if i != 0 {
		t.Fatalf("case %d (value %d) chosen", i, v.Int())
	}
}

func TestFailsInvalidDir(t *testing.T) {
	reflect.Select([]reflect.SelectCase{{Dir: 9}})
}

// Value.Send and Value.Recv block until a partner comes (eapache/channels
// forwards between channels this way); TrySend and TryRecv do not block;
// Close closes, and Recv on the closed channel gets ok false.
func TestValueSendRecv(t *testing.T) {
	in, out := make(chan int), make(chan any, 1)
	go func() {
		v, ok := reflect.ValueOf(in).Recv()
		if !ok {
			panic("closed")
		}
		reflect.ValueOf(out).Send(v)
	}()
	in <- 5
	if got := <-out; got != 5 {
		t.Fatalf("got %v", got)
	}
	c := reflect.ValueOf(make(chan string, 1))
	if v, ok := c.TryRecv(); v.IsValid() || ok {
		t.Fatalf("TryRecv of an empty channel: %v %v", v, ok)
	}
	if !c.TrySend(reflect.ValueOf("a")) || c.TrySend(reflect.ValueOf("b")) {
		t.Fatal("TrySend: want true then false (capacity 1)")
	}
	c.Close()
	if v, ok := c.Recv(); v.String() != "a" || !ok {
		t.Fatalf("Recv: %v %v", v, ok)
	}
	if v, ok := c.Recv(); v.String() != "" || ok {
		t.Fatalf("Recv after close: %v %v", v, ok)
	}
}

// A Value.Recv on a channel nobody sends on leaks its goroutine.
func TestValueRecvLeak(t *testing.T) {
	c := make(chan int)
	go func() { reflect.ValueOf(c).Recv() }()
}

func TestFailsSendNotAssignable(t *testing.T) {
	reflect.ValueOf(make(chan int, 1)).Send(reflect.ValueOf("x"))
}
