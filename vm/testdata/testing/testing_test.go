// Package testing_test exercises the testing package as gmc models it:
// cleanups, t.Context, subtests and FailNow/SkipNow ending only the test
// or subtest that calls them, parallel subtests running after their
// parent's function returned and concurrently with each other. Every test
// but the TestFail* passes under go test -race (TestFailParallelRace's race
// shows only when its subtests overlap in time).
package testing_test

import (
	"context"
	"testing"
)

var log []string

// A server goroutine stopped by a cleanup: no leak when cleanups run.
func TestCleanupStopsServer(t *testing.T) {
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() { <-stop; close(done) }()
	t.Cleanup(func() { close(stop); <-done })
}

// Cleanups run last registered first, after the test function returned.
func TestCleanupOrder(t *testing.T) {
	var order []int
	t.Run("sub", func(t *testing.T) {
		t.Cleanup(func() { order = append(order, 1) })
		t.Cleanup(func() { order = append(order, 2) })
		order = append(order, 0)
	})
	if len(order) != 3 || order[0] != 0 || order[1] != 2 || order[2] != 1 {
		t.Fatalf("order %v", order)
	}
}

// t.Context is canceled before the cleanups run (and not before).
func TestContextCanceledBeforeCleanup(t *testing.T) {
	ctx := t.Context()
	if ctx.Err() != nil {
		t.Fatal("canceled during the test")
	}
	done := make(chan struct{})
	go func() { <-ctx.Done(); close(done) }()
	t.Cleanup(func() {
		<-done
		if ctx.Err() != context.Canceled {
			t.Error("not canceled before the cleanup")
		}
	})
}

// SkipNow in a subtest ends the subtest only; its cleanups still run.
func TestSkipNowEndsSubtest(t *testing.T) {
	ran := false
	t.Run("skipped", func(t *testing.T) {
		t.Cleanup(func() { ran = true })
		t.SkipNow()
		t.Error("after SkipNow")
	})
	if !ran {
		t.Fatal("the subtest's cleanup did not run")
	}
}

// A failing test with a cleanup: reported as a failure (assert).
func TestFailNowRunsCleanup(t *testing.T) {
	t.Cleanup(func() { t.Log("cleanup ran") })
	t.Fatal("boom")
}

// The parent goes on after a subtest's SkipNow: its failure is reported.
func TestFailAfterSkippedSubtest(t *testing.T) {
	t.Run("skipped", func(t *testing.T) { t.SkipNow() })
	t.Fatal("after the subtest")
}

// Parallel subtests run once their parent's function returned: here they
// wait for a gate the parent opens after starting them.
func TestParallelAfterParent(t *testing.T) {
	gate := make(chan struct{})
	for _, name := range []string{"a", "b"} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			<-gate
		})
	}
	close(gate)
}

// The parent's deferred calls run before its parallel subtests (a classic
// bug: the subtest sees the resource closed).
func TestFailParallelAfterDefer(t *testing.T) {
	closed := false
	defer func() { closed = true }()
	t.Run("sub", func(t *testing.T) {
		t.Parallel()
		if closed {
			t.Fatal("closed before the parallel subtest ran")
		}
	})
}

// Parallel siblings run concurrently: their unsynchronized increments race.
func TestFailParallelRace(t *testing.T) {
	n := 0
	t.Run("group", func(t *testing.T) {
		for _, name := range []string{"a", "b"} {
			t.Run(name, func(t *testing.T) {
				t.Parallel()
				n++
			})
		}
	})
	if n != 2 {
		t.Fatal(n)
	}
}

// A test whose long part runs only without -short (testing.Short).
func TestFailLongPart(t *testing.T) {
	if testing.Short() {
		t.Skip("long")
	}
	t.Fatal("the long part ran")
}
