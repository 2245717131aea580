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
