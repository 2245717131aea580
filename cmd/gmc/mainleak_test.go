package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

// TestMainLeakDefault: gmc check on a main package checks leaks by
// default (Go 1.26's rule, when main returns): a goroutine blocked on a
// channel only its own stack holds is reported in the leak profile's
// words and replays; goroutines blocked on a channel a global holds (a
// waiter, a server loop) are not leaks, and the exhaustive search proves
// those programs correct.
func TestMainLeakDefault(t *testing.T) {
	out := filepath.Join(t.TempDir(), "trace.json")
	_, stderr, code := gmc(t, "check", "--out", out, "./testdata/mainleak", "--", "leak")
	if code != 1 || !strings.Contains(stderr, "goroutine leak: 1 goroutine blocked forever after the entry returned") ||
		!strings.Contains(stderr, "[chan send (leaked)]:\nmain.main.func1(...)") {
		t.Fatalf("leak: exit %d\n%s", code, stderr)
	}
	_, stderr, code = gmc(t, "replay", out)
	if code != 1 || !strings.Contains(stderr, "reproduced: leak") {
		t.Errorf("leak replay: exit %d\n%s", code, stderr)
	}
	for _, arg := range []string{"global", "server"} {
		stdout, stderr, code := gmc(t, "check", "--json", "--strategy", "exhaustive", "./testdata/mainleak", "--", arg)
		var rep struct{ Verdict string }
		if err := json.Unmarshal([]byte(stdout), &rep); err != nil || code != 0 || rep.Verdict != "no-error" {
			t.Errorf("%s: exit %d, verdict %q, want no-error\n%s%s", arg, code, rep.Verdict, stdout, stderr)
		}
	}
}
