// Command gokernative measures how often the GoKer kernels that ship with
// Go show their bug in plain native runs: the yardstick for gmc's GoKer
// campaign (guide/goker_test.go). It copies
// $(go env GOROOT)/src/runtime/testdata/testgoroutineleakprofile/goker to a
// temporary module, builds it twice with GOEXPERIMENT=goroutineleakprofile
// (the kernels write the goroutine leak profile before they return) —
// plainly and with -race — runs every registered kernel n times with each
// binary (GODEBUG=asyncpreemptoff=1, as the Go project's test does) and
// counts the runs whose leak profile reports a leaked goroutine and, for
// the -race binary, the runs that report a data race. It prints a
// Markdown table and a summary.
//
// Run it from the repository root:
//
//	go run ./benchmarks/gokernative [-n 10] [-j 1] [-run regexp] [-timeout 20s]
//
// The rates depend on the machine and its load.
package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"sort"
	"strings"
	"sync"
	"time"
)

var registerRe = regexp.MustCompile(`register\("(\w+)",\s*(\w+)\)`)

// leakedRe matches the header of a leaked goroutine in the leak profile.
var leakedRe = regexp.MustCompile(`(?m)^goroutine \d+ \[[^\]]*\(leaked\)`)

type counts struct {
	leak, leakRace, race, failed int
}

func main() {
	n := flag.Int("n", 10, "runs of each kernel with each binary")
	jobs := flag.Int("j", 1, "runs at once")
	runRe := flag.String("run", "", "only kernels whose name matches this regexp")
	timeout := flag.Duration("timeout", 20*time.Second, "time limit of one run")
	flag.Parse()
	filter, err := regexp.Compile(*runRe)
	if err != nil {
		fail(err)
	}
	src := filepath.Join(runtime.GOROOT(), "src", "runtime", "testdata", "testgoroutineleakprofile", "goker")
	tmp, err := os.MkdirTemp("", "gokernative")
	if err != nil {
		fail(err)
	}
	defer os.RemoveAll(tmp)
	names, err := copyKernels(src, tmp)
	if err != nil {
		fail(err)
	}
	plain, race := filepath.Join(tmp, "goker"), filepath.Join(tmp, "goker-race")
	if err := build(tmp, plain); err != nil {
		fail(err)
	}
	if err := build(tmp, race, "-race"); err != nil {
		fail(err)
	}
	var selected []string
	for _, k := range names {
		if filter.MatchString(k) {
			selected = append(selected, k)
		}
	}
	res := map[string]*counts{}
	var mu sync.Mutex
	type job struct {
		kernel string
		race   bool
	}
	work := make(chan job)
	var wg sync.WaitGroup
	for w := 0; w < max(*jobs, 1); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range work {
				exe := plain
				if j.race {
					exe = race
				}
				out, err := runOnce(exe, j.kernel, *timeout)
				mu.Lock()
				c := res[j.kernel]
				switch {
				case j.race && bytes.Contains(out, []byte("WARNING: DATA RACE")):
					c.race++
				case err != nil && !j.race:
					c.failed++
				}
				if leakedRe.Match(out) {
					if j.race {
						c.leakRace++
					} else {
						c.leak++
					}
				}
				mu.Unlock()
			}
		}()
	}
	start := time.Now()
	for _, k := range selected {
		res[k] = &counts{}
	}
	for i := 0; i < *n; i++ {
		for _, k := range selected {
			work <- job{k, false}
			work <- job{k, true}
		}
	}
	close(work)
	wg.Wait()
	fmt.Printf("%s, GOEXPERIMENT=goroutineleakprofile GODEBUG=asyncpreemptoff=1, %d runs of each kernel with each binary, %d at once, %v\n\n",
		goVersion(), *n, *jobs, time.Since(start).Round(time.Second))
	fmt.Println("| kernel | leak profile: runs with a leak | -race: runs with a leak | -race: runs with a race | failed runs |")
	fmt.Println("|---|---:|---:|---:|---:|")
	shown, always, raced := 0, 0, 0
	for _, k := range selected {
		c := res[k]
		fmt.Printf("| %s | %d/%d | %d/%d | %d/%d | %d |\n", k, c.leak, *n, c.leakRace, *n, c.race, *n, c.failed)
		if c.leak+c.leakRace > 0 {
			shown++
		}
		if c.leak == *n {
			always++
		}
		if c.race > 0 {
			raced++
		}
	}
	fmt.Printf("\n%d kernels: %d show a leak in at least one run, %d in every plain run; %d show a data race under -race\n",
		len(selected), shown, always, raced)
}

// copyKernels copies the kernel sources into dir as a module and returns
// the registered kernel names, sorted.
func copyKernels(src, dir string) ([]string, error) {
	var names []string
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".go") {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		for _, m := range registerRe.FindAllSubmatch(data, -1) {
			names = append(names, string(m[1]))
		}
		return os.WriteFile(filepath.Join(dir, filepath.Base(p)), data, 0o644)
	})
	if err != nil {
		return nil, err
	}
	sort.Strings(names)
	return names, os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module goker\n\ngo 1.26\n"), 0o644)
}

func build(dir, out string, flags ...string) error {
	args := append([]string{"build", "-o", out}, flags...)
	cmd := exec.Command("go", append(args, ".")...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOEXPERIMENT=goroutineleakprofile", "GOFLAGS=-mod=mod")
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("go %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return nil
}

// runOnce runs one kernel and returns its combined output.
func runOnce(exe, kernel string, timeout time.Duration) ([]byte, error) {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, exe, kernel)
	cmd.Env = append(os.Environ(), "GODEBUG=asyncpreemptoff=1")
	return cmd.CombinedOutput()
}

func goVersion() string {
	out, err := exec.Command("go", "version").Output()
	if err != nil {
		return "go"
	}
	return strings.TrimSpace(string(out))
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "gokernative:", err)
	os.Exit(2)
}
