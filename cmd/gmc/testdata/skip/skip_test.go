// Package skip has a test that skips (go test: SKIP), one that skips in
// some schedules and fails in the others, and one that skips in some
// schedules and passes in the others.
package skip

import "testing"

func TestSkipAlways(t *testing.T) { t.Skip("not on this machine") }

func TestFailOrSkip(t *testing.T) {
	x := make(chan int, 1)
	go func() { x <- 1 }()
	select {
	case <-x:
		t.Skip("the goroutine sent first")
	default:
		t.Fatal("the test went first")
	}
}

func TestMixedSkip(t *testing.T) {
	x := make(chan int, 1)
	go func() { x <- 1 }()
	select {
	case <-x:
		t.Skip("the goroutine sent first")
	default:
	}
}
