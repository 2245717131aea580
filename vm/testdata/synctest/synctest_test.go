// Package synctest_test runs tests in testing/synctest bubbles: virtual
// time that passes only when the bubble is durably blocked, synctest.Wait,
// the bubble's clock starting at 2000-01-01 UTC, and Go's panics for a
// deadlocked bubble and for Wait outside one. Under go test -race, the
// tests named TestFails* fail and the others pass.
package synctest_test

import (
	"context"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"
)

// Sleep advances the bubble's clock only when the bubble is blocked, by
// exactly the time slept; Wait returns once the sleeper is blocked.
func TestSleepAndWait(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		start := time.Now()
		if want := time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC); !start.Equal(want) {
			t.Fatalf("the bubble starts at %v, want %v", start, want)
		}
		var done atomic.Bool
		go func() {
			time.Sleep(time.Second)
			done.Store(true)
		}()
		time.Sleep(500 * time.Millisecond)
		synctest.Wait()
		if done.Load() {
			t.Fatal("the goroutine woke before its second")
		}
		time.Sleep(time.Second)
		synctest.Wait()
		if !done.Load() {
			t.Fatal("the goroutine did not wake")
		}
		if d := time.Since(start); d != 1500*time.Millisecond {
			t.Fatalf("slept %v, want 1.5s", d)
		}
	})
}

// Wait orders what the other goroutines of the bubble did before they
// blocked before its return: no data race on x.
func TestWaitOrders(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		x := 0
		ch := make(chan int)
		go func() {
			x = 1
			<-ch
		}()
		synctest.Wait()
		if x != 1 {
			t.Fatal("x not set")
		}
		close(ch)
	})
}

// A context deadline and a ticker in the bubble fire at their virtual
// times; the ticker's value is the bubble's clock.
func TestDeadlineAndTicker(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		start := time.Now()
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		tk := time.NewTicker(300 * time.Millisecond)
		defer tk.Stop()
		ticks := 0
		for {
			select {
			case now := <-tk.C:
				ticks++
				if !now.Equal(time.Now()) {
					t.Fatalf("tick at %v, clock %v", now, time.Now())
				}
				continue
			case <-ctx.Done():
			}
			break
		}
		if d := time.Since(start); d != 2*time.Second || ticks != 6 {
			t.Fatalf("deadline after %v and %d ticks, want 2s and 6", d, ticks)
		}
		if ctx.Err() != context.DeadlineExceeded {
			t.Fatal(ctx.Err())
		}
	})
}

// Cleanups registered in the bubble run in it, before Test returns.
func TestCleanupInBubble(t *testing.T) {
	ran := false
	synctest.Test(t, func(t *testing.T) {
		t.Cleanup(func() {
			time.Sleep(time.Minute)
			ran = true
		})
	})
	if !ran {
		t.Fatal("the bubble's cleanup did not run")
	}
}

// A failure inside the bubble fails the test.
func TestFailsInside(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		time.Sleep(time.Hour)
		t.Errorf("failed at %v", time.Now().UTC().Format(time.TimeOnly))
	})
}

// The bubble's root returns while a goroutine it started is blocked
// forever: synctest.Test panics.
func TestFailsDeadlock(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ch := make(chan int)
		go func() { <-ch }()
	})
}

// Wait outside a bubble panics.
func TestFailsWaitOutside(t *testing.T) {
	synctest.Wait()
}

// Every goroutine of the bubble, its root included, is blocked forever:
// synctest.Test panics.
func TestFailsAllBlocked(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ch := make(chan int)
		go func() { ch <- <-ch }()
		<-ch
	})
}
