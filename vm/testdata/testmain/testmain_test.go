// Package testmain has a TestMain: go test runs every test through it, so
// a test sees what TestMain set up before m.Run, and os.Exit(m.Run())
// reports the test's own failure.
package testmain

import (
	"os"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
)

var setup int32

func TestMain(m *testing.M) {
	atomic.StoreInt32(&setup, 1)
	os.Exit(m.Run())
}

func TestSetup(t *testing.T) {
	if atomic.LoadInt32(&setup) != 1 {
		t.Fatal("TestMain did not run")
	}
}

// TestParallelSubtests: parallel subtests of a group all run before the
// group's t.Run returns.
func TestParallelSubtests(t *testing.T) {
	var n int32
	t.Run("group", func(t *testing.T) {
		for _, name := range []string{"a", "b", "c"} {
			t.Run(name, func(t *testing.T) {
				t.Parallel()
				atomic.AddInt32(&n, 1)
			})
		}
	})
	if atomic.LoadInt32(&n) != 3 {
		t.Fatalf("n = %d, want 3", n)
	}
}

func TestFails(t *testing.T) {
	t.Cleanup(func() { t.Log("cleanup") })
	t.Errorf("boom %d", atomic.LoadInt32(&setup))
}

// TestSubtestCallers: under a TestMain too, a subtest runs on a goroutine
// of testing.tRunner, which runtime.Callers shows below the subtest's
// frames (go.uber.org/fx's TestDeepStack counts them).
func TestSubtestCallers(t *testing.T) {
	t.Run("nest", func(t *testing.T) {
		pcs := make([]uintptr, 8)
		frames := runtime.CallersFrames(pcs[:runtime.Callers(1, pcs)])
		var names []string
		for f, more := frames.Next(); more; f, more = frames.Next() {
			names = append(names, f.Function)
		}
		if len(names) != 2 || names[1] != "testing.tRunner" {
			t.Fatalf("frames %v, want the subtest's and testing.tRunner", names)
		}
	})
}

// TestTopCallers: under a TestMain, a test runs on a goroutine of
// testing.tRunner too: runtime.Callers shows the test, testing.tRunner and
// runtime.goexit, not TestMain (uber-go/zap's caller tests skip from a
// test down to the runtime's frames).
func TestTopCallers(t *testing.T) {
	pcs := make([]uintptr, 8)
	frames := runtime.CallersFrames(pcs[:runtime.Callers(1, pcs)])
	var names []string
	for f, more := frames.Next(); ; f, more = frames.Next() {
		names = append(names, f.Function)
		if !more {
			break
		}
	}
	if len(names) != 3 || !strings.HasSuffix(names[0], "testmain.TestTopCallers") || names[1] != "testing.tRunner" || names[2] != "runtime.goexit" {
		t.Fatalf("frames %v, want the test's, testing.tRunner and runtime.goexit", names)
	}
	if _, file, _, _ := runtime.Caller(2); !strings.HasSuffix(file, "src/runtime/asm_amd64.s") {
		t.Fatalf("runtime.Caller(2) in %s, want the runtime's asm_amd64.s", file)
	}
}
