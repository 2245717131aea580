// Package quickcall holds tests that call VM functions through
// reflect.Value.Call and CallSlice and run property tests with
// testing/quick (interpreted from its source); vm's TestReflectCallQuick
// asserts gmc's verdict on each.
package quickcall

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"testing/quick"
)

func add(a, b int) int { return a + b }

func divmod(a, b int) (int, int, error) {
	if b == 0 {
		return 0, 0, errors.New("division by zero")
	}
	return a / b, a % b, nil
}

func join(sep string, parts ...string) string { return strings.Join(parts, sep) }

type counter struct{ n int }

func (c *counter) Add(k int) int { c.n += k; return c.n }

func vals(xs ...any) []reflect.Value {
	out := make([]reflect.Value, len(xs))
	for i, x := range xs {
		out[i] = reflect.ValueOf(x)
	}
	return out
}

// TestCall calls functions, a closure, a method value and variadic
// functions through reflect and checks every result.
func TestCall(t *testing.T) {
	if got := reflect.ValueOf(add).Call(vals(2, 3))[0].Int(); got != 5 {
		t.Fatalf("add: %d", got)
	}
	out := reflect.ValueOf(divmod).Call(vals(17, 5))
	if len(out) != 3 || out[0].Int() != 3 || out[1].Int() != 2 || !out[2].IsNil() || out[2].Kind() != reflect.Interface {
		t.Fatalf("divmod: %v", out)
	}
	out = reflect.ValueOf(divmod).Call(vals(1, 0))
	if err, _ := out[2].Interface().(error); err == nil || err.Error() != "division by zero" {
		t.Fatalf("divmod error: %v", out[2])
	}
	k := 10
	inc := func(d int) { k += d }
	if out := reflect.ValueOf(inc).Call(vals(5)); len(out) != 0 || k != 15 {
		t.Fatalf("closure: %d results, k=%d", len(out), k)
	}
	c := &counter{}
	reflect.ValueOf(c.Add).Call(vals(4))
	if got := reflect.ValueOf(c.Add).Call(vals(3))[0].Int(); got != 7 || c.n != 7 {
		t.Fatalf("method value: %d", got)
	}
	if got := reflect.ValueOf(join).Call(vals("-", "a", "b", "c"))[0].String(); got != "a-b-c" {
		t.Fatalf("variadic: %q", got)
	}
	if got := reflect.ValueOf(join).Call(vals(","))[0].String(); got != "" {
		t.Fatalf("variadic, none: %q", got)
	}
	if got := reflect.ValueOf(join).CallSlice(vals("+", []string{"x", "y"}))[0].String(); got != "x+y" {
		t.Fatalf("CallSlice: %q", got)
	}
	if got := reflect.ValueOf(fmt.Sprint).Call(vals(1, "a"))[0].String(); got != "1a" {
		t.Fatalf("fmt.Sprint: %q", got)
	}
}

// TestCallPanics: misuse panics with reflect's messages.
func TestCallPanics(t *testing.T) {
	for _, c := range []struct {
		f    func()
		want string
	}{
		{func() { reflect.ValueOf(add).Call(vals(1)) }, "reflect: Call with too few input arguments"},
		{func() { reflect.ValueOf(add).Call(vals(1, 2, 3)) }, "reflect: Call with too many input arguments"},
		{func() { reflect.ValueOf(add).Call(vals(1, "x")) }, "reflect: Call using string as type int"},
		{func() { reflect.ValueOf(add).CallSlice(vals(1, 2)) }, "reflect: CallSlice of non-variadic function"},
	} {
		func() {
			defer func() {
				if r := recover(); fmt.Sprint(r) != c.want {
					t.Errorf("recovered %v, want %s", r, c.want)
				}
			}()
			c.f()
		}()
	}
}

// TestCallConcurrent: the called function starts a goroutine and
// receives from it; the function panics through Call into the caller's
// recover.
func TestCallConcurrent(t *testing.T) {
	work := func(n int) int {
		ch := make(chan int)
		go func() { ch <- n * 2 }()
		return <-ch
	}
	if got := reflect.ValueOf(work).Call(vals(21))[0].Int(); got != 42 {
		t.Fatalf("work: %d", got)
	}
	defer func() {
		if r := recover(); r != "boom" {
			t.Fatalf("recovered %v", r)
		}
	}()
	reflect.ValueOf(func() { panic("boom") }).Call(nil)
}

// TestCallLeaks: a goroutine started through Call blocks forever (a leak).
func TestCallLeaks(t *testing.T) {
	start := func() {
		ch := make(chan int)
		go func() { ch <- 1 }()
	}
	reflect.ValueOf(start).Call(nil)
}

// TestQuickCheck: properties that hold.
func TestQuickCheck(t *testing.T) {
	if err := quick.Check(func(a, b int) bool { return add(a, b) == add(b, a) }, nil); err != nil {
		t.Error(err)
	}
	rev := func(s []byte) []byte {
		r := make([]byte, len(s))
		for i, b := range s {
			r[len(s)-1-i] = b
		}
		return r
	}
	if err := quick.CheckEqual(func(s []byte) []byte { return rev(rev(s)) }, func(s []byte) []byte { return s }, &quick.Config{MaxCount: 20}); err != nil {
		t.Error(err)
	}
}

// TestQuickCheckFails: a property that does not hold for every uint8.
func TestQuickCheckFails(t *testing.T) {
	if err := quick.Check(func(a uint8) bool { return a < 200 }, &quick.Config{MaxCount: 1000}); err != nil {
		t.Error(err)
	}
}
