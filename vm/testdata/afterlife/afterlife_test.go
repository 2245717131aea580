package afterlife

import (
	"testing"
	"time"
)

func TestInitTicker(t *testing.T) {
	if Add(1, 2) != 3 {
		t.Fatal("1+2 != 3")
	}
}

func TestJanitor(t *testing.T) {
	janitor(time.Second)
	if Add(2, 2) != 4 {
		t.Fatal("2+2 != 4")
	}
}

// TestLatePanic leaves a goroutine that panics 10 ms after the test
// returned: in a test binary that still runs then (more tests follow), the
// panic crashes it. The timer was set before the test returned: it fires.
func TestLatePanic(t *testing.T) {
	go func() {
		time.Sleep(10 * time.Millisecond)
		panic("late")
	}()
}

// TestLateLoop's goroutine would panic on its hundredth sweep, a second
// after the test returned. After the test returns the run goes on while
// a timer set before is pending (the init's ticker, due at 500 ms): the
// sweeps due before fire with it (time passes for all), the ticker's next
// period and the sweeps after are set after the test returned and never
// fire, as a test binary exits first. No error.
func TestLateLoop(t *testing.T) {
	go func() {
		for i := 0; ; i++ {
			time.Sleep(10 * time.Millisecond)
			if i == 100 {
				panic("hundredth sweep")
			}
		}
	}()
}

// TestLateError's goroutine fails the test 10 ms after it returned: go
// test panics, "Fail in goroutine after TestLateError has completed".
func TestLateError(t *testing.T) {
	go func() {
		time.Sleep(10 * time.Millisecond)
		t.Error("late")
	}()
}

// TestRacyError's goroutine fails the test with nothing to make the test
// wait: in the schedules where the test returns first, go test panics.
func TestRacyError(t *testing.T) {
	go t.Error("maybe late")
}

// TestWaitedError's goroutine fails the test before it returns (the test
// waits for it), TestCleanupError's before its cleanup returns: no panic,
// the test fails as go test reports it.
func TestWaitedError(t *testing.T) {
	done := make(chan bool)
	go func() {
		t.Error("in time")
		close(done)
	}()
	<-done
}

func TestCleanupError(t *testing.T) {
	done := make(chan bool)
	go func() {
		time.Sleep(10 * time.Millisecond)
		t.Error("in time for the cleanup")
		close(done)
	}()
	t.Cleanup(func() { <-done })
}
