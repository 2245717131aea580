// Command nativerate measures how often plain native runs hit the bugs of
// the benchmark suite: the first peer gmc has to beat. For every buggy
// configuration of benchmarks/suite.json with entry main it builds the
// model twice, plainly and with -race, runs each binary n times and counts
// the runs that end in a panic, a deadlock ("all goroutines are asleep") or,
// for the -race binary, a data race report. For the fuzz targets it can also
// run "go test -fuzz" for a while (and "go test -race -fuzz" for the race
// targets) and report whether and when the fuzzer found the bug. It prints
// a Markdown table.
//
// Run it from the repository root:
//
//	go run ./benchmarks/nativerate [-n 100] [-j 1] [-run regexp] [-fuzztime 30s [-fuzztrials 3]]
//
// Runs are sequential by default (-j 1) so that they do not compete with
// each other for the CPUs; the rates still depend on the machine and its
// load.
package main

import (
	"bufio"
	"bytes"
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/gmc-go/gmc/benchmarks"
)

var (
	n        = flag.Int("n", 100, "runs per configuration and build")
	jobs     = flag.Int("j", 1, "runs at the same time")
	timeout  = flag.Duration("timeout", time.Second, "time limit of one run; a run that exceeds it counts as a hang")
	runRE    = flag.String("run", "", "only configurations whose name matches this regexp")
	noRace   = flag.Bool("norace", false, "skip the -race builds")
	fixed    = flag.Bool("fixed", false, "also run the fixed twins")
	fuzztime = flag.Duration("fuzztime", 0, "if positive, fuzz each fuzz target this long with go test -fuzz")
	trials   = flag.Int("fuzztrials", 1, "fuzzing trials per fuzz target")
)

func main() {
	flag.Parse()
	if _, err := os.Stat("benchmarks/suite.json"); err != nil {
		fatalf("run nativerate from the repository root: %v", err)
	}
	cs, err := benchmarks.Suite()
	if err != nil {
		fatalf("suite.json: %v", err)
	}
	re := regexp.MustCompile(*runRE)
	var mains, fuzz []benchmarks.Config
	for _, c := range cs {
		if !re.MatchString(c.Name) || (c.Expect == "none" && !*fixed) {
			continue
		}
		if c.Entry == "main" {
			mains = append(mains, c)
		} else {
			fuzz = append(fuzz, c)
		}
	}

	tmp, err := os.MkdirTemp("", "nativerate")
	if err != nil {
		fatalf("%v", err)
	}
	defer os.RemoveAll(tmp)
	var pkgs []string
	for _, c := range mains {
		if !slices.Contains(pkgs, c.Pkg) {
			pkgs = append(pkgs, c.Pkg)
		}
	}
	builds := []string{"plain"}
	if !*noRace {
		builds = append(builds, "race")
	}
	if len(pkgs) > 0 {
		for _, b := range builds {
			args := []string{"build", "-o", filepath.Join(tmp, b) + string(filepath.Separator)}
			if b == "race" {
				args = append(args, "-race")
			}
			if out, err := exec.Command("go", append(args, pkgs...)...).CombinedOutput(); err != nil {
				fatalf("go build: %v\n%s", err, out)
			}
		}
	}

	fmt.Printf("nativerate -n %d -j %d, %s\n\n", *n, *jobs, time.Now().UTC().Format("2006-01-02 15:04 UTC"))
	if len(mains) > 0 {
		fmt.Println("| configuration | goroutines | expect | bug at | plain: bug hits | -race: race reports | -race: bug hits |")
		fmt.Println("|---|---|---|---|---|---|---|")
	}
	for _, c := range mains {
		model := filepath.Base(c.Pkg)
		row := []string{
			fmt.Sprintf("%s(%s)", model, strings.Join(c.Args, ",")),
			goroutines(model, c.Args),
			c.Expect,
			strings.Join(bugLines(c.Pkg), ", "),
		}
		for _, b := range builds {
			counts := measure(filepath.Join(tmp, b, model), c.Args)
			if b == "plain" {
				row = append(row, format(counts, "panic", "deadlock", "hang", "other"))
			} else {
				row = append(row, fmt.Sprintf("%d/%d", counts["race"], *n),
					format(counts, "panic", "deadlock", "hang", "other"))
			}
		}
		fmt.Println("| " + strings.Join(row, " | ") + " |")
	}

	if *fuzztime > 0 && len(fuzz) > 0 {
		fmt.Printf("\n| fuzz target | expect | go test -fuzz (%v) | go test -race -fuzz (%v) |\n|---|---|---|---|\n", *fuzztime, *fuzztime)
		for _, c := range fuzz {
			row := []string{c.Pkg + " " + c.Entry, c.Expect, fuzzTrials(c, false)}
			if c.Expect == "race" && !*noRace {
				row = append(row, fuzzTrials(c, true))
			} else {
				row = append(row, "")
			}
			fmt.Println("| " + strings.Join(row, " | ") + " |")
		}
	}
}

// measure runs bin n times and counts the outcomes.
func measure(bin string, args []string) map[string]int {
	counts := map[string]int{}
	var mu sync.Mutex
	var wg sync.WaitGroup
	sem := make(chan struct{}, *jobs)
	for range *n {
		sem <- struct{}{}
		wg.Add(1)
		go func() {
			defer func() { <-sem; wg.Done() }()
			kinds := runOnce(bin, args)
			mu.Lock()
			for _, k := range kinds {
				counts[k]++
			}
			mu.Unlock()
		}()
	}
	wg.Wait()
	return counts
}

// runOnce runs bin once and returns what happened: any of "race", "panic",
// "deadlock", "hang", "other"; nothing for a clean exit.
func runOnce(bin string, args []string) []string {
	ctx, cancel := context.WithTimeout(context.Background(), *timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, args...)
	// Without atexit_sleep_ms=0 a -race binary that reported a race sleeps
	// for a second before it exits.
	cmd.Env = append(os.Environ(), "GORACE=atexit_sleep_ms=0")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	err := cmd.Run()
	var kinds []string
	if bytes.Contains(stderr.Bytes(), []byte("WARNING: DATA RACE")) {
		kinds = append(kinds, "race")
	}
	switch {
	case ctx.Err() != nil:
		kinds = append(kinds, "hang")
	case bytes.Contains(stderr.Bytes(), []byte("all goroutines are asleep")):
		kinds = append(kinds, "deadlock")
	case bytes.Contains(stderr.Bytes(), []byte("\npanic: ")) || bytes.HasPrefix(stderr.Bytes(), []byte("panic: ")):
		kinds = append(kinds, "panic")
	case err != nil && len(kinds) == 0:
		kinds = append(kinds, "other")
	}
	return kinds
}

// format writes the sum of the given outcomes out of n, naming the kinds
// that occurred.
func format(counts map[string]int, kinds ...string) string {
	total := 0
	var parts []string
	for _, k := range kinds {
		if counts[k] > 0 {
			total += counts[k]
			parts = append(parts, fmt.Sprintf("%d %s", counts[k], k))
		}
	}
	s := fmt.Sprintf("%d/%d", total, *n)
	if len(parts) > 1 || (len(parts) == 1 && !strings.HasPrefix(parts[0], strconv.Itoa(total)+" ")) {
		s += " (" + strings.Join(parts, ", ") + ")"
	} else if len(parts) == 1 {
		s += " " + strings.TrimPrefix(parts[0], strconv.Itoa(total)+" ")
	}
	return s
}

// bugLines returns file:line of each "// BUG:" comment in pkg, relative to
// benchmarks/.
func bugLines(pkg string) []string {
	files, _ := filepath.Glob(filepath.Join(pkg, "*.go"))
	var locs []string
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		fh, err := os.Open(f)
		if err != nil {
			continue
		}
		sc := bufio.NewScanner(fh)
		for line := 1; sc.Scan(); line++ {
			if strings.Contains(sc.Text(), "// BUG:") {
				rel, _ := filepath.Rel("benchmarks", f)
				locs = append(locs, fmt.Sprintf("%s:%d", filepath.ToSlash(rel), line))
			}
		}
		fh.Close()
	}
	return locs
}

// goroutines returns how many goroutines, main included, a configuration
// of model starts.
func goroutines(model string, args []string) string {
	a := make([]int, len(args))
	for i, s := range args {
		a[i], _ = strconv.Atoi(s)
	}
	sum := func(xs ...int) int {
		t := 1
		for _, x := range xs {
			t += x
		}
		return t
	}
	var g int
	switch strings.TrimSuffix(model, "_fixed") {
	case "reorder", "twostage", "wronglock", "accountsubtype", "abslist", "arylist", "vecdeadlock", "vecrace":
		g = sum(a[0], a[1])
	case "airline", "account":
		g = sum(a[0])
	case "piper":
		g = sum(2 * a[1])
	case "producerconsumer", "clean":
		g = sum(a[0], a[1])
	case "deadlock":
		g = 3
	case "alarmclock":
		g = sum(a[0], 1)
	default:
		return "?"
	}
	return strconv.Itoa(g)
}

// fuzzTrials runs -fuzztrials fuzzing trials of c and reports each.
func fuzzTrials(c benchmarks.Config, race bool) string {
	var rs []string
	for i := range *trials {
		r := fuzzOnce(c, race)
		if *trials > 1 {
			r = fmt.Sprintf("%d. %s", i+1, r)
		}
		rs = append(rs, r)
	}
	return strings.Join(rs, "<br>")
}

// fuzzOnce fuzzes c's target for -fuzztime and reports whether the fuzzer
// found a failing input, and when. The fuzzer only says that the worker
// process failed or hung, so the input is then replayed once with go test
// -run, as a user would, to see what it does. Inputs the fuzzer saves under
// the package's testdata directory are removed again.
func fuzzOnce(c benchmarks.Config, race bool) string {
	corpus := filepath.Join(c.Pkg, "testdata", "fuzz", c.Entry)
	existed := exists(filepath.Join(c.Pkg, "testdata"))
	defer func() {
		if !existed {
			os.RemoveAll(filepath.Join(c.Pkg, "testdata"))
		} else {
			os.RemoveAll(corpus)
		}
	}()
	var flags []string
	if race {
		flags = append(flags, "-race")
	}
	start := time.Now()
	_, err := goTest(append(flags, "-run=^$", "-fuzz=^"+c.Entry+"$", "-fuzztime="+fuzztime.String(),
		"-timeout="+(*fuzztime+5*time.Minute).String(), c.Pkg))
	elapsed := time.Since(start).Round(100 * time.Millisecond)
	if err == nil {
		return fmt.Sprintf("not found in %v", elapsed)
	}
	files, _ := filepath.Glob(filepath.Join(corpus, "*"))
	if len(files) == 0 {
		return fmt.Sprintf("failed after %v with no saved input", elapsed)
	}
	replay, err := goTest(append(flags, "-count=1", "-timeout=20s",
		"-run=^"+c.Entry+"$/^"+filepath.Base(files[0])+"$", c.Pkg))
	kind := "passed"
	switch {
	case err == nil:
	case strings.Contains(replay, "WARNING: DATA RACE"):
		kind = "race"
	case strings.Contains(replay, "test timed out"):
		kind = "hang (deadlock)"
	case strings.Contains(replay, "panic: "):
		kind = "panic"
	default:
		kind = "failed"
	}
	return fmt.Sprintf("found after %v%s; replay: %s", elapsed, savedInput(corpus), kind)
}

// goTest runs go test with args and returns its output.
func goTest(args []string) (string, error) {
	cmd := exec.Command("go", append([]string{"test"}, args...)...)
	cmd.Env = append(os.Environ(), "GORACE=atexit_sleep_ms=0")
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// savedInput returns the input that go test -fuzz saved in dir.
func savedInput(dir string) string {
	files, _ := filepath.Glob(filepath.Join(dir, "*"))
	if len(files) == 0 {
		return ""
	}
	b, err := os.ReadFile(files[0])
	if err != nil {
		return ""
	}
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	return " (input " + strings.Join(lines[1:], " ") + ")"
}

func exists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

func fatalf(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "nativerate: "+format+"\n", args...)
	os.Exit(1)
}
