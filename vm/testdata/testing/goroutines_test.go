package testing_test

import (
	"fmt"
	"runtime"
	"strconv"
	"strings"
	"testing"
)

// stackOf returns runtime.Stack's text and the id in its first line.
func stackOf(all bool) (string, int) {
	buf := make([]byte, 1<<16)
	s := string(buf[:runtime.Stack(buf, all)])
	id, _ := strconv.Atoi(strings.Fields(s)[1])
	return s, id
}

// TestGoroutinesAsGoTest: a test runs on a goroutine of its own, started
// by testing.(*T).Run from go test's main goroutine (1), which waits for
// it in testing.(*T).Run; runtime.NumGoroutine counts both; a subtest's
// goroutine is created by testing.(*T).Run in its parent's goroutine.
// (goleak's own tests count these goroutines.)
func TestGoroutinesAsGoTest(t *testing.T) {
	if n := runtime.NumGoroutine(); n != 2 {
		t.Fatalf("NumGoroutine %d, want 2 (go test's main goroutine and the test's)", n)
	}
	mine, id := stackOf(false)
	if id == 1 || !strings.Contains(mine, "testing.tRunner(") || !strings.Contains(mine, "created by testing.(*T).Run in goroutine 1\n") {
		t.Fatalf("the test's own stack:\n%s", mine)
	}
	all, _ := stackOf(true)
	if i := strings.Index(all, "\ngoroutine 1 ["); i < 0 || !strings.HasPrefix(all[i+strings.Index(all[i:], "]:\n")+3:], "testing.(*T).Run(") {
		t.Fatalf("no main goroutine waiting in testing.(*T).Run:\n%s", all)
	}
	done := make(chan int)
	go func() {
		_, child := stackOf(false)
		done <- child
	}()
	if child := <-done; child == id || child == 1 {
		t.Fatalf("a goroutine the test started has id %d (the test's is %d)", child, id)
	}
	t.Run("sub", func(t *testing.T) {
		sub, subID := stackOf(false)
		if subID == id || !strings.Contains(sub, fmt.Sprintf("created by testing.(*T).Run in goroutine %d\n", id)) {
			t.Fatalf("the subtest's stack (parent goroutine %d):\n%s", id, sub)
		}
	})
}
