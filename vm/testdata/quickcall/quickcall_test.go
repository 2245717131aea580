// Package quickcall holds tests that call VM functions through
// reflect.Value.Call and CallSlice, make functions with reflect.MakeFunc
// and run property tests with
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

// TestMakeFunc: functions made by reflect.MakeFunc, called directly,
// through reflect and from another goroutine; a wrong result type panics
// with reflect's message.
func TestMakeFunc(t *testing.T) {
	swap := func(in []reflect.Value) []reflect.Value { return []reflect.Value{in[1], in[0]} }
	var intSwap func(int, string) (string, int)
	fn := reflect.MakeFunc(reflect.TypeOf(intSwap), swap)
	reflect.ValueOf(&intSwap).Elem().Set(fn)
	if s, n := intSwap(1, "a"); s != "a" || n != 1 {
		t.Fatalf("intSwap: %q %d", s, n)
	}
	if out := fn.Call(vals(2, "b")); out[0].String() != "b" || out[1].Int() != 2 {
		t.Fatalf("Call: %v", out)
	}
	sum := reflect.MakeFunc(reflect.TypeOf(func(...int) int { return 0 }), func(in []reflect.Value) []reflect.Value {
		s := 0
		for i := 0; i < in[0].Len(); i++ {
			s += int(in[0].Index(i).Int())
		}
		return []reflect.Value{reflect.ValueOf(s)}
	}).Interface().(func(...int) int)
	ch := make(chan int)
	go func() { ch <- sum(1, 2, 3) }()
	if got := <-ch; got != 6 {
		t.Fatalf("sum: %d", got)
	}
	defer func() {
		want := "reflect.MakeFunc: value of type string is not assignable to type int"
		if r := recover(); fmt.Sprint(r) != want {
			t.Fatalf("recovered %v", r)
		}
	}()
	bad := reflect.MakeFunc(reflect.TypeOf(func() int { return 0 }), func([]reflect.Value) []reflect.Value {
		return []reflect.Value{reflect.ValueOf("x")}
	}).Interface().(func() int)
	bad()
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
