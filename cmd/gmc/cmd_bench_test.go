package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestBench runs a tiny campaign as 2 shards, merges them and takes a view
// of one strategy; and checks the usage errors.
func TestBench(t *testing.T) {
	tmp := t.TempDir()
	args := []string{"bench", "--quiet", "--filter", "^deadlock-1$", "--strategies", "rdfs,random", "--trials", "2", "--time-limit", "30s"}
	for _, s := range []string{"0/2", "1/2"} {
		out := filepath.Join(tmp, "shard"+s[:1])
		if _, stderr, code := gmc(t, append(args, "--shard", s, "--out", out)...); code != 0 {
			t.Fatalf("shard %s: exit %d: %s", s, code, stderr)
		}
	}
	stdout, stderr, code := gmc(t, "bench", "merge", "--out", filepath.Join(tmp, "all"), filepath.Join(tmp, "shard0"), filepath.Join(tmp, "shard1"))
	if code != 0 {
		t.Fatalf("merge: exit %d: %s", code, stderr)
	}
	if !strings.Contains(stdout, "| deadlock-1 | 3 | 1.00 | 1.00 |") {
		t.Errorf("merged summary lacks the density row:\n%s", stdout)
	}
	for _, f := range []string{"campaign.json", "results.jsonl", "summary.csv", "summary.md", "states-deadlock.svg", "states-deadlock.png"} {
		if fi, err := os.Stat(filepath.Join(tmp, "all", f)); err != nil || fi.Size() == 0 {
			t.Errorf("%s: missing or empty (%v)", f, err)
		}
	}
	stdout, stderr, code = gmc(t, "bench", "merge", "--strategies", "random", "--out", filepath.Join(tmp, "view"), filepath.Join(tmp, "all"))
	if code != 0 || !strings.Contains(stdout, "| configuration | goroutines | random |") {
		t.Errorf("view: exit %d: %s\n%s", code, stderr, stdout)
	}

	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"bench", "--shard", "2/2"}, "bad shard"},
		{[]string{"bench", "--strategies", "guided:magic"}, "unknown heuristic"},
		{[]string{"bench", "--filter", "^nothing$"}, "matches no configuration"},
		{[]string{"bench", "a.json", "b.json"}, "at most one suite"},
		{[]string{"bench", "merge"}, "output directories"},
		{[]string{"bench", "merge", "--out", filepath.Join(tmp, "x"), filepath.Join(tmp, "shard0")}, "1 of 2 shards"},
	} {
		_, stderr, code := gmc(t, c.args...)
		if code != exitUsage || !strings.Contains(stderr, c.want) {
			t.Errorf("gmc %s: exit %d, stderr %q; want exit 2 and %q", strings.Join(c.args, " "), code, stderr, c.want)
		}
	}
}
