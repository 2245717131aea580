package benchmarks_test

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gmc-go/gmc/benchmarks"
)

// root is the repository root, relative to this package's directory.
const root = ".."

// models are the seed's models and library drivers; each has a _fixed twin.
var models = []string{
	"reorder", "twostage", "airline", "wronglock", "accountsubtype", "account",
	"piper", "producerconsumer", "clean", "deadlock", "alarmclock",
	"abslist", "arylist", "vecdeadlock", "vecrace",
	"vecdeadlock0", "vecdeadlock1", "elem",
}

func suite(t *testing.T) []benchmarks.Config {
	t.Helper()
	cs, err := benchmarks.Suite()
	if err != nil {
		t.Fatalf("suite.json: %v", err)
	}
	return cs
}

// TestSuite checks that suite.json parses, that every configuration names
// an existing package and entry, and that every model and twin is listed.
func TestSuite(t *testing.T) {
	cs := suite(t)
	names := map[string]bool{}
	listed := map[string]bool{}
	expects := []string{"panic", "deadlock", "leak", "race", "assert", "none"}
	for _, c := range cs {
		if c.Name == "" || names[c.Name] {
			t.Errorf("%q: empty or duplicate name", c.Name)
		}
		names[c.Name] = true
		if !slices.Contains(expects, c.Expect) {
			t.Errorf("%s: expect %q is not one of %v", c.Name, c.Expect, expects)
		}
		if c.SeedRef == "" {
			t.Errorf("%s: no seed_ref", c.Name)
		}
		model, ok := strings.CutPrefix(c.Pkg, "./benchmarks/")
		if !ok || strings.Contains(model, "/") {
			t.Errorf("%s: pkg %q is not ./benchmarks/<model>", c.Name, c.Pkg)
			continue
		}
		listed[model] = true
		if fixed := strings.HasSuffix(model, "_fixed"); fixed != (c.Expect == "none") {
			t.Errorf("%s: pkg %s with expect %q", c.Name, c.Pkg, c.Expect)
		}
		src := sources(t, filepath.Join(root, c.Pkg))
		if src == nil {
			t.Errorf("%s: no Go files in %s", c.Name, c.Pkg)
			continue
		}
		if c.Entry == "main" {
			if !strings.Contains(src["nontest"], "\npackage main\n") || !strings.Contains(src["nontest"], "\nfunc main() {") {
				t.Errorf("%s: %s is not a main package", c.Name, c.Pkg)
			}
		} else {
			if !strings.HasPrefix(c.Entry, "Fuzz") || !strings.Contains(src["test"], "\nfunc "+c.Entry+"(f *testing.F) {") {
				t.Errorf("%s: no fuzz target %s in %s", c.Name, c.Entry, c.Pkg)
			}
			if len(c.Args) != 0 {
				t.Errorf("%s: fuzz target with args %v", c.Name, c.Args)
			}
		}
	}
	for _, m := range models {
		for _, p := range []string{m, m + "_fixed"} {
			if !listed[p] {
				t.Errorf("./benchmarks/%s has no configuration in suite.json", p)
			}
		}
	}
}

// sources returns the concatenated Go sources of dir, "nontest" and "test".
func sources(t *testing.T, dir string) map[string]string {
	files, _ := filepath.Glob(filepath.Join(dir, "*.go"))
	if len(files) == 0 {
		return nil
	}
	src := map[string]string{}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		k := "nontest"
		if strings.HasSuffix(f, "_test.go") {
			k = "test"
		}
		src[k] += "\n" + string(b)
	}
	return src
}

// TestBugComments checks that every buggy model marks its failing lines
// with a "// BUG:" comment and that no fixed twin has one.
func TestBugComments(t *testing.T) {
	for _, m := range models {
		src := sources(t, filepath.Join(root, "benchmarks", m))
		if !strings.Contains(src["nontest"], "// BUG: ") {
			t.Errorf("benchmarks/%s has no // BUG: comment", m)
		}
		src = sources(t, filepath.Join(root, "benchmarks", m+"_fixed"))
		if strings.Contains(src["nontest"], "// BUG") {
			t.Errorf("benchmarks/%s_fixed has a // BUG comment", m)
		}
	}
}

const runTimeout = 10 * time.Second

// outcome classifies how a run ended.
func outcome(err error, stderr []byte, ctxErr error) string {
	switch {
	case ctxErr != nil:
		return "timeout"
	case err == nil:
		return "ok"
	case bytes.Contains(stderr, []byte("all goroutines are asleep")):
		return "deadlock"
	case bytes.Contains(stderr, []byte("WARNING: DATA RACE")):
		return "race"
	case bytes.Contains(stderr, []byte("panic: ")):
		return "panic"
	}
	return "failed: " + err.Error()
}

func run(bin string, args ...string) (string, []byte) {
	ctx, cancel := context.WithTimeout(context.Background(), runTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, args...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	err := cmd.Run()
	return outcome(err, stderr.Bytes(), ctx.Err()), stderr.Bytes()
}

// TestNative builds every model once and runs the configurations natively:
// the easy buggy ones once each, which must terminate (bug or not); the
// fixed twins 20 times each, which must never fail; and the fuzz targets on
// their seed corpus (20 times for the fixed twins, whose corpus holds an
// input that reaches the bug in the unrepaired version).
func TestNative(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command")
	}
	cs := suite(t)
	bin := t.TempDir()
	var mains, fuzz []string
	for _, c := range cs {
		list := &mains
		if c.Entry != "main" {
			list = &fuzz
		}
		if !slices.Contains(*list, c.Pkg) {
			*list = append(*list, c.Pkg)
		}
	}
	build := func(args ...string) {
		cmd := exec.Command("go", args...)
		cmd.Dir = root
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("go %s: %v\n%s", strings.Join(args[:2], " "), err, out)
		}
	}
	build(append([]string{"build", "-o", bin + string(filepath.Separator)}, mains...)...)
	build(append([]string{"test", "-c", "-o", bin + string(filepath.Separator)}, fuzz...)...)

	type job struct {
		name  string
		bin   string
		args  []string
		times int
		fixed bool
	}
	var jobs []job
	for _, c := range cs {
		fixed := c.Expect == "none"
		j := job{name: c.Name, fixed: fixed, bin: filepath.Join(bin, path.Base(c.Pkg)), args: c.Args, times: 1}
		if c.Entry != "main" {
			j.bin += ".test"
			j.args = []string{"-test.run=^" + regexp.QuoteMeta(c.Entry) + "$"}
		}
		if fixed {
			j.times = 20
		} else if c.Hard && c.Entry == "main" {
			continue
		}
		jobs = append(jobs, j)
	}

	var mu sync.Mutex
	bugs := map[string]int{}
	sem := make(chan struct{}, 4)
	var wg sync.WaitGroup
	for _, j := range jobs {
		for range j.times {
			sem <- struct{}{}
			wg.Add(1)
			go func() {
				defer func() { <-sem; wg.Done() }()
				res, stderr := run(j.bin, j.args...)
				mu.Lock()
				defer mu.Unlock()
				switch {
				case res == "timeout":
					t.Errorf("%s %v: did not terminate in %v", j.name, j.args, runTimeout)
				case j.fixed && res != "ok":
					t.Errorf("fixed twin %s %v: %s\n%s", j.name, j.args, res, firstLines(stderr, 5))
				case strings.HasSuffix(j.bin, ".test") && res != "ok":
					t.Errorf("%s: the seed corpus reached the bug: %s\n%s", j.name, res, firstLines(stderr, 5))
				case res != "ok" && strings.HasPrefix(res, "failed"):
					t.Errorf("%s %v: %s\n%s", j.name, j.args, res, firstLines(stderr, 5))
				case res != "ok":
					bugs[j.name+": "+res]++
				}
			}()
		}
	}
	wg.Wait()
	for k, n := range bugs {
		t.Logf("bug hit natively: %s (%d)", k, n)
	}
}

func firstLines(b []byte, n int) string {
	lines := strings.SplitN(string(b), "\n", n+1)
	return strings.Join(lines[:min(n, len(lines))], "\n")
}
