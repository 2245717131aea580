package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// realBug is a line of benchmarks/realbugs/bugs.txt.
type realBug struct {
	name, mod, buggy, fixed, pkg, test, kind, copy string
}

// readRealBugs parses benchmarks/realbugs/bugs.txt.
func readRealBugs(t *testing.T) map[string]realBug {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "..", "benchmarks", "realbugs", "bugs.txt"))
	if err != nil {
		t.Fatal(err)
	}
	bugs := map[string]realBug{}
	for i, line := range strings.Split(string(data), "\n") {
		if strings.HasPrefix(line, "#") || strings.TrimSpace(line) == "" {
			continue
		}
		f := strings.Fields(line)
		if len(f) != 9 || !strings.HasPrefix(f[8], "https://") {
			t.Fatalf("bugs.txt:%d: want 9 fields ending with a link, got %q", i+1, line)
		}
		bugs[f[0]] = realBug{f[0], f[1], f[2], f[3], f[4], f[5], f[6], f[7]}
	}
	return bugs
}

// copyModule copies a module version out of the module cache into dir
// (skipping the test when the cache lacks it), writable.
func copyModule(t *testing.T, cache, mod, version, dir string) {
	t.Helper()
	src := filepath.Join(cache, mod+"@"+version)
	if _, err := os.Stat(src); err != nil {
		t.Skipf("%s@%s is not in the module cache (benchmarks/realbugs.sh: FETCH=1)", mod, version)
	}
	if out, err := exec.Command("cp", "-r", src, dir).CombinedOutput(); err != nil {
		t.Fatalf("cp: %v\n%s", err, out)
	}
	if out, err := exec.Command("chmod", "-R", "u+w", dir).CombinedOutput(); err != nil {
		t.Fatalf("chmod: %v\n%s", err, out)
	}
}

// TestRealBugs: three real concurrency bugs that were fixed with a
// regression test (benchmarks/realbugs/bugs.txt, RESULTS.md session 13) —
// a lost wake-up in x/sync's semaphore (a deadlock), a canceled Acquire
// that took the tokens (a failed test), and a data race in
// benbjohnson/clock's AfterFunc — are found in the buggy version,
// of the kind the data file names, and replay; the fixed version has no
// error. The modules are not vendored: the test skips when the module
// cache lacks them.
func TestRealBugs(t *testing.T) {
	if testing.Short() {
		t.Skip("short")
	}
	out, err := exec.Command("go", "env", "GOMODCACHE").Output()
	if err != nil {
		t.Skip("go env GOMODCACHE:", err)
	}
	cache := strings.TrimSpace(string(out))
	bugs := readRealBugs(t)
	t.Setenv("GOPROXY", "file://"+filepath.ToSlash(filepath.Join(cache, "cache", "download")))
	t.Setenv("GOSUMDB", "off")
	t.Setenv("GOFLAGS", "-mod=mod")
	for _, name := range []string{"xsync-sem-frontcancel", "xsync-sem-canceled", "clock-afterfunc"} {
		b, ok := bugs[name]
		if !ok {
			t.Fatalf("bugs.txt has no %s", name)
		}
		t.Run(name, func(t *testing.T) {
			for _, version := range []string{b.buggy, b.fixed} {
				dir := filepath.Join(t.TempDir(), "m")
				copyModule(t, cache, b.mod, version, dir)
				if version == b.buggy && b.copy != "-" {
					test, err := os.ReadFile(filepath.Join(cache, b.mod+"@"+b.fixed, b.copy))
					if err != nil {
						t.Skipf("the fixed version's test: %v", err)
					}
					if err := os.WriteFile(filepath.Join(dir, b.copy), test, 0o644); err != nil {
						t.Fatal(err)
					}
				}
				traces := t.TempDir()
				cmd := exec.Command(gmcBin, "check", "--json", "--time-limit", "30s", "--out", traces,
					"--entry", "^"+b.test+"$", b.pkg)
				cmd.Dir = dir
				stdout, _ := cmd.Output()
				var rep struct {
					Results []struct {
						Verdict  string
						ReplayOK bool   `json:"replay_ok"`
						Trace    string `json:"trace_file"`
						Error    *struct{ Kind string }
					}
				}
				if err := json.Unmarshal(stdout, &rep); err != nil || len(rep.Results) != 1 {
					t.Fatalf("%s@%s: report %q: %v", b.mod, version, stdout, err)
				}
				r := rep.Results[0]
				if version == b.fixed {
					if r.Verdict == "error" {
						t.Errorf("%s@%s (fixed): %s error: a false alarm", b.mod, version, r.Error.Kind)
					}
					continue
				}
				if r.Verdict != "error" || r.Error == nil || r.Error.Kind != b.kind || !r.ReplayOK {
					t.Fatalf("%s@%s (buggy): %+v, want a %s error that replays", b.mod, version, r, b.kind)
				}
				replay := exec.Command(gmcBin, "replay", r.Trace)
				replay.Dir = dir
				if err := replay.Run(); err == nil || replay.ProcessState.ExitCode() != 1 {
					t.Errorf("%s@%s: gmc replay %s: %v, want exit 1 (reproduced)", b.mod, version, r.Trace, err)
				}
			}
		})
	}
}
