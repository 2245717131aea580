package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gmc-go/gmc/vm/trace"
)

// TestTestHang: a test blocked forever while a ticker's goroutine keeps
// receiving (issue 14's ticker-kept hang) is reported by the default
// check as a hang, what go test's "test timed out" shows, and replays; a
// test whose ticker goroutine counts ticks and then releases it is no
// hang, proved by the exhaustive search.
func TestTestHang(t *testing.T) {
	out := filepath.Join(t.TempDir(), "hang.json")
	stdout, stderr, code := gmc(t, "check", "--json", "--time-limit", "20s", "--entry", "TestTickerKeptHang", "--out", out, "./testdata/hang")
	var rep trace.Report
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil || code != 1 || rep.Error == nil {
		t.Fatalf("exit %d, %v, want the hang:\n%s", code, err, stderr)
	}
	if rep.Error.Kind != "hang" || !strings.Contains(rep.Error.Message, "blocked forever while the program cycles") {
		t.Errorf("%s %q, want a hang", rep.Error.Kind, rep.Error.Message)
	}
	if _, rstderr, rcode := gmc(t, "replay", out); rcode != 1 || !strings.Contains(rstderr, "reproduced: hang") {
		t.Errorf("replay exit %d:\n%s", rcode, rstderr)
	}
	stdout, stderr, code = gmc(t, "check", "--json", "--strategy", "exhaustive", "--time-limit", "20s", "--entry", "TestTickerCountsThenReleases", "./testdata/hang")
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil || code != 0 || rep.Verdict != "no-error" {
		t.Errorf("counting ticker: exit %d, verdict %q, want no-error:\n%s%s", code, rep.Verdict, stdout, stderr)
	}
}
