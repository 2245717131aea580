package testing_test

import (
	"errors"
	"fmt"
	"testing"
)

// waiter's String method blocks until another goroutine sends.
type waiter struct{ ch chan int }

func (w waiter) String() string { return fmt.Sprint("got ", <-w.ch) }

// TestLogfBlockingString: t.Logf formats with fmt run from source, so a
// String method that waits for another goroutine runs as Go runs it (no
// leak, no %!v(PANIC=...)).
func TestLogfBlockingString(t *testing.T) {
	w := waiter{make(chan int)}
	go func() { w.ch <- 7 }()
	t.Logf("%v", w)
}

// TestFailErrorfBlockingString fails with the message the String method made.
func TestFailErrorfBlockingString(t *testing.T) {
	w := waiter{make(chan int)}
	go func() { w.ch <- 8 }()
	t.Errorf("%v and %v", w, errors.New("e"))
}

// TestFailFatalWrapped fails with fmt.Sprintln's operands, %w chains printed
// by the wrapping errors' Error methods, and stops the test.
func TestFailFatalWrapped(t *testing.T) {
	err := fmt.Errorf("outer: %w", fmt.Errorf("inner: %w", errors.ErrUnsupported))
	t.Fatal(err, errors.Is(err, errors.ErrUnsupported), 3)
	t.Log("not reached")
}

// checkEqual is a test helper: its failures are reported at its caller's
// line, as go test does.
func checkEqual(t *testing.T, got, want int) {
	t.Helper()
	if got != want {
		t.Errorf("got %d, want %d", got, want)
	}
}

// outerCheck is a helper that calls a helper.
func outerCheck(t *testing.T, got int) {
	t.Helper()
	checkEqual(t, got, 1)
}

// notAHelper calls a helper but is not one itself.
func notAHelper(t *testing.T, got int) {
	checkEqual(t, got, 2)
}

// TestFailHelperLines fails three times; each message is at the line go
// test reports: the helper's caller, past nested helpers, and a function
// that is not a helper.
func TestFailHelperLines(t *testing.T) {
	checkEqual(t, 1, 1)
	checkEqual(t, 3, 4)
	outerCheck(t, 5)
	notAHelper(t, 6)
}

// checkGeneric is a generic helper: its instance is the function that
// called t.Helper, so its failure is at its caller's line.
func checkGeneric[T comparable](t *testing.T, got, want T) {
	t.Helper()
	if got != want {
		t.Errorf("got %v, want %v", got, want)
	}
}

// notAGenericHelper is generic and not a helper: its failure is at its own line.
func notAGenericHelper[T any](t *testing.T, v T) {
	t.Errorf("generic %v", v)
}

func one(yield func(int) bool) { yield(1) }

// TestFailGenericAndRangeLines fails in a generic helper, in a generic
// function that is not a helper and in a range-over-func loop body; each
// message is at the line go test reports.
func TestFailGenericAndRangeLines(t *testing.T) {
	checkGeneric(t, "a", "b")
	notAGenericHelper(t, 7)
	for v := range one {
		t.Errorf("in the loop %d", v)
	}
}
