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
