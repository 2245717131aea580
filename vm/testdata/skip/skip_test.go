// Package skip_test holds tests that skip, as go test reports them: SKIP
// for a test whose own T skipped without failing (TestSkip*, FuzzSkipF),
// PASS for one whose subtest or fuzz input skipped (TestPass*,
// FuzzPassInner), either in different schedules (TestMixed*), FAIL for
// one that failed before or after skipping (TestFail*, and FuzzFailInner
// for an input other than its seed).
package skip_test

import (
	"testing"
)

func TestSkipAlways(t *testing.T) { t.Skip("not on this machine") }

func TestSkipNow(t *testing.T) {
	t.Log("before")
	t.SkipNow()
	t.Error("after SkipNow")
}

// A helper's Skipf is reported at its caller's line.
func skipHelper(t *testing.T, why string) {
	t.Helper()
	t.Skipf("skipping: %s", why)
}

func TestSkipfHelper(t *testing.T) { skipHelper(t, "no network") }

// t.Skipped reports the skip to a cleanup.
func TestSkipSkippedInCleanup(t *testing.T) {
	t.Cleanup(func() {
		if !t.Skipped() {
			t.Error("t.Skipped is false after t.Skip")
		}
	})
	t.Skip("short")
}

// A goroutine racing with the test's skip: SKIP in every schedule.
func TestSkipAfterGoroutine(t *testing.T) {
	done := make(chan bool)
	go func() { done <- true }()
	<-done
	t.Skip("after the goroutine")
}

func TestPassSubtestSkips(t *testing.T) {
	t.Run("sub", func(t *testing.T) { t.Skip("sub skips") })
}

// The test skips in the schedules where the goroutine sent first and
// passes in the others.
func TestMixedSkipSometimes(t *testing.T) {
	x := make(chan int, 1)
	go func() { x <- 1 }()
	select {
	case <-x:
		t.Skip("the goroutine sent first")
	default:
	}
}

func TestFailThenSkip(t *testing.T) {
	t.Error("failed first")
	t.Skip("then skipped")
}

func TestFailSubtestAfterSkip(t *testing.T) {
	t.Run("a", func(t *testing.T) { t.Skip("a skips") })
	t.Run("b", func(t *testing.T) { t.Error("b fails") })
}

func FuzzSkipF(f *testing.F) {
	f.Skip("no fuzzing here")
}

func FuzzPassInner(f *testing.F) {
	f.Add(1)
	f.Fuzz(func(t *testing.T, n int) { t.Skip("every input skips") })
}

// The fuzz function's t.Errorf fails the fuzz target.
func FuzzFailInner(f *testing.F) {
	f.Add(3)
	f.Fuzz(func(t *testing.T, n int) {
		if n == 7 {
			t.Errorf("bad input %d", n)
		}
	})
}

// The test skips when the goroutine sent first and fails otherwise.
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

// The test skips when the goroutine sent first, and otherwise reads v
// as the goroutine writes it: a race.
func TestRaceUnlessSkipped(t *testing.T) {
	v := 0
	x := make(chan int, 1)
	go func() {
		v = 1
		x <- 1
	}()
	select {
	case <-x:
		t.Skip("the goroutine sent first")
	default:
		if v == 1 {
			t.Log("the write came first")
		}
	}
}
