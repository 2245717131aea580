package testing_test

import (
	"runtime"
	"strings"
	"testing"
)

// callerFuncs returns the function names runtime.Callers(skip) and
// runtime.CallersFrames give for the calling goroutine, innermost first.
func callerFuncs(skip int) []string {
	pcs := make([]uintptr, 64)
	n := runtime.Callers(skip, pcs)
	frames := runtime.CallersFrames(pcs[:n])
	var names []string
	for {
		f, more := frames.Next()
		names = append(names, f.Function)
		if !more {
			break
		}
	}
	return names
}

// TestCallersAsGoTest: runtime.Callers and runtime.CallersFrames show a
// test's goroutine as go test runs it — the test function, then
// testing.tRunner, then runtime.goexit — and a subtest's the same way,
// while a goroutine the test started ends in its own function and
// runtime.goexit. zap's internal/stacktrace skips one frame of the test
// and expects the next to be the test runner's.
func TestCallersAsGoTest(t *testing.T) {
	want := "testing_test.callerFuncs testing_test.TestCallersAsGoTest testing.tRunner runtime.goexit"
	if got := short(callerFuncs(1)); got != want {
		t.Fatalf("the test's frames: %s, want %s", got, want)
	}
	if got := short(callerFuncs(3)); got != "testing.tRunner runtime.goexit" {
		t.Fatalf("skip 3 (the test's caller): %s", got)
	}
	done := make(chan string)
	go func() { done <- short(callerFuncs(2)) }()
	if got := <-done; got != "testing_test.TestCallersAsGoTest.func1 runtime.goexit" {
		t.Fatalf("a goroutine the test started: %s", got)
	}
	t.Run("sub", func(t *testing.T) {
		if got := short(callerFuncs(2)); got != "testing_test.TestCallersAsGoTest.func2 testing.tRunner runtime.goexit" {
			t.Fatalf("the subtest's frames: %s", got)
		}
	})
}

// short drops the package path before each name's last slash.
func short(names []string) string {
	for i, n := range names {
		if j := strings.LastIndex(n, "/"); j >= 0 {
			names[i] = n[j+1:]
		}
	}
	return strings.Join(names, " ")
}

// TestCallerPastTheTest: runtime.Caller walks past the test function into
// testing.tRunner and runtime.goexit, and then reports !ok (testify's
// CallerInfo stops at testing.tRunner).
func TestCallerPastTheTest(t *testing.T) {
	var got []string
	for i := 0; ; i++ {
		pc, file, _, ok := runtime.Caller(i)
		if !ok {
			break
		}
		name := "?"
		if f := runtime.FuncForPC(pc); f != nil {
			name = f.Name()
		}
		got = append(got, name+" "+file[strings.LastIndex(file, "/")+1:])
	}
	if s := short(got); s != "testing_test.TestCallerPastTheTest callers_test.go testing.tRunner testing.go runtime.goexit asm_amd64.s" {
		t.Fatalf("runtime.Caller(0...): %s", s)
	}
}
