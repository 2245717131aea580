package timing

import (
	"context"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// TestWatchdog: no error (a one-second watchdog never fires while the
// other goroutine has work left).
func TestWatchdog(t *testing.T) {
	done := make(chan struct{})
	go func() { close(done) }()
	select {
	case <-done:
	case <-time.After(time.Second):
		t.Fatal("hangs")
	}
}

// TestChildOfTimeout: no error (one select default in context's
// propagateCancel does not make time pass).
func TestChildOfTimeout(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	child, cancelChild := context.WithCancel(ctx)
	cancelChild()
	<-child.Done()
	if ctx.Err() != nil {
		t.Fatal("the one-minute deadline expired")
	}
}

// TestPollOnce: no error (a goroutine that polls once and goes on working
// is not spinning).
func TestPollOnce(t *testing.T) {
	timeout := time.After(time.Second)
	n := 0
	for i := 0; i < 100; i++ {
		select {
		case <-timeout:
			t.Fatal("the timer fired while the loop worked")
		default:
		}
		n += i
	}
	if n != 4950 {
		t.Fatalf("n = %d", n)
	}
}

// TestTimerFires: assert "after the timer" (the test blocks until its
// timer fires, which is no deadlock, and then goes on; the clock has
// advanced by the timer's duration).
func TestTimerFires(t *testing.T) {
	start := time.Now()
	<-time.After(time.Second)
	if d := time.Since(start); d < time.Second {
		t.Fatalf("the timer fired after %v", d)
	}
	t.Fatal("after the timer")
}

// TestSpinUntilTimer: assert "after the spin" (a goroutine that spins on
// a flag a timer sets makes time pass: the timer fires and the loop ends).
func TestSpinUntilTimer(t *testing.T) {
	var fired atomic.Bool
	time.AfterFunc(time.Second, func() { fired.Store(true) })
	for !fired.Load() {
		runtime.Gosched()
	}
	t.Fatal("after the spin")
}

// TestSpinSelectUntilTimer: assert "after the select" (a select-default
// loop waiting on a timer's channel makes time pass).
func TestSpinSelectUntilTimer(t *testing.T) {
	tm := time.NewTimer(time.Second)
	for {
		select {
		case <-tm.C:
			t.Fatal("after the select")
		default:
			runtime.Gosched()
		}
	}
}

// TestSpinMutexUntilTimer: assert "after the mutex loop" (a loop that
// only locks a mutex to read a flag a timer's function sets, with no
// select or Gosched, makes time pass once it has run long enough).
func TestSpinMutexUntilTimer(t *testing.T) {
	var mu sync.Mutex
	fired := false
	time.AfterFunc(time.Second, func() { mu.Lock(); fired = true; mu.Unlock() })
	for {
		mu.Lock()
		f := fired
		mu.Unlock()
		if f {
			break
		}
	}
	t.Fatal("after the mutex loop")
}
