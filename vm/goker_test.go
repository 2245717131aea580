package vm_test

import (
	"errors"
	"fmt"
	"os"
	"runtime/debug"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gmc-go/gmc/internal/goker"
	"github.com/gmc-go/gmc/vm"
	"github.com/gmc-go/gmc/vm/load"
	"github.com/gmc-go/gmc/vm/trace"
)

// The GoKer kernels (GoBench bug kernels shipped with Go) and the micro and
// pattern cases of the same directory are run under the VM with a few
// seeds. The kernels and the Go project's expected leaks are read from
// GOROOT at test time (DESIGN §6).
//
// Each kernel runs as the Go project's test runs it: as a process, in real
// time. Each transition takes gokerStepTime and timers fire when due
// (StepTime: a 1ns AfterFunc fires in the middle of a busy loop; main's
// final 100ms sleep ends after 10,000 transitions of the others, or at
// once when they all block). The process ends gokerGrace transitions
// after the kernel function returns, whatever still runs (EntryGrace);
// the leaks are the goroutines blocked then that nothing running can
// reach, as the leak profile written at the end of the kernel reports
// them. The scheduler is random and sticky (Stay gokerStay: a goroutine
// usually runs on, never after Gosched, always after a go statement; when
// it does not, the goroutine it readied last usually runs), as Go's runs
// a goroutine until it blocks and then its P's runnext: a uniform choice
// among thousands of goroutines would never let main finish spawning them.

// gokerDepth bounds each run (transitions; GMC_GOKER_DEPTH overrides it).
// A run that reaches it is reported as unfinished and the kernel's later
// seeds are skipped; at the default bound that fails the test (every case
// runs to completion). gokerBudget is a safety bound on the wall time of one
// run (GMC_GOKER_BUDGET overrides it).
const (
	gokerDepth      = 200000
	gokerShortDepth = 10000
	gokerBudget     = 30 * time.Second
	gokerGrace      = 10000
	gokerStepTime   = 10 * time.Microsecond
)

// gokerRunBudget is gokerBudget, or GMC_GOKER_BUDGET (a duration).
func gokerRunBudget() time.Duration {
	if d, err := time.ParseDuration(os.Getenv("GMC_GOKER_BUDGET")); err == nil && d > 0 {
		return d
	}
	return gokerBudget
}

// gokerStay is the walks' probability of staying on the last goroutine
// (trace.WalkConfig.Stay; GMC_GOKER_STAY overrides it). With 0 (uniform)
// Moby27782 and Kubernetes58107 (10,000 and 1,000 spawns) do not finish
// within 200,000 transitions.
func gokerStay() float64 {
	if v, err := strconv.ParseFloat(os.Getenv("GMC_GOKER_STAY"), 64); err == nil {
		return v
	}
	return 0.9
}

// errBudget aborts a run that exceeds gokerBudget.
var errBudget = errors.New("time budget exceeded")

// knownCoreBugs are kernels that fail because of a bug in the VM core (not a
// missing model); they are reported, not failed. Remove an entry when it
// passes.
var knownCoreBugs = map[string]string{}

// kernelResult summarizes the runs of one kernel.
type kernelResult struct {
	name       string
	runs       int
	leaks      int            // runs that ended in a leak
	other      map[string]int // other outcomes: "exit", "panic", "deadlock", ...
	matched    map[int]bool   // indexes of upstream patterns seen
	unexpected []string       // leaked goroutines matching no pattern
	goker      bool           // a GoKer kernel (not a micro or pattern case)
	failure    string         // unsupported, internal error
	unfinished string         // why a run did not end (budget)
	overDepth  bool           // a run reached the bound on transitions
}

func runKernel(m *vm.Machine, name, fn string, seeds []uint64, depth int) (r kernelResult) {
	r = kernelResult{name: name, other: map[string]int{}, matched: map[int]bool{}}
	e, err := m.FindEntry(fn)
	if err != nil {
		r.failure = err.Error()
		return r
	}
	for _, seed := range seeds {
		var s *vm.State
		deadline := time.Now().Add(gokerRunBudget())
		n := 0
		func() {
			defer func() {
				if p := recover(); p != nil && p != errBudget {
					r.failure = fmt.Sprintf("internal error (seed %d): %v\n%s", seed, p, debug.Stack())
				}
			}()
			s, _, _ = trace.Walk(m, e, trace.WalkConfig{Seed: seed, MaxDepth: depth, Stay: gokerStay()}, func(s *vm.State) {
				if n++; n%512 == 0 && time.Now().After(deadline) {
					if err := s.Err(); err == nil || err.Kind != vm.KindUnsupported {
						panic(errBudget)
					}
				}
			})
		}()
		if r.failure != "" {
			return r
		}
		r.runs++
		if s == nil {
			r.unfinished = fmt.Sprintf("seed %d: over %v (%d transitions)", seed, gokerRunBudget(), n)
			return r
		}
		err := s.Err()
		switch {
		case err == nil && s.Exited():
			r.other["exit"]++
		case err == nil:
			r.unfinished = fmt.Sprintf("seed %d: over %d transitions", seed, depth)
			r.overDepth = true
			return r
		case err.Kind == vm.KindUnsupported:
			r.failure = fmt.Sprintf("seed %d: %s", seed, err.Msg)
			return r
		case err.Kind == vm.KindLeak:
			r.leaks++
			for _, g := range err.Goroutines {
				r.unexpected = append(r.unexpected, goker.LeakLine(g)) // filtered by the caller
			}
		default:
			r.other[string(err.Kind)]++
		}
	}
	return r
}

// check matches r's leaked goroutines against the upstream expectation
// and returns the leaks matching no pattern (deduplicated).
func (r *kernelResult) check(exp *goker.Expectation) []string {
	matched, bad := exp.Match(r.unexpected)
	for i := range matched {
		r.matched[i] = true
	}
	r.unexpected = bad
	return bad
}

func TestGoKer(t *testing.T) {
	cases, err := goker.Cases()
	if err != nil {
		t.Skip(err)
	}
	exps, err := goker.Expectations()
	if err != nil {
		t.Skip(err)
	}
	seeds, depth := []uint64{1, 2, 3}, gokerDepth
	if testing.Short() {
		seeds, depth = seeds[:2], gokerShortDepth
	}
	if v, err := strconv.Atoi(os.Getenv("GMC_GOKER_DEPTH")); err == nil && v > 0 {
		depth = v
	}
	var dirs []string // the package directories, kernels first
	byDir := map[string][]goker.Case{}
	for _, c := range cases {
		if byDir[c.Dir] == nil {
			dirs = append(dirs, c.Dir)
		}
		byDir[c.Dir] = append(byDir[c.Dir], c)
	}
	var mu sync.Mutex
	var results []kernelResult
	t.Run("kernels", func(t *testing.T) {
		for _, dir := range dirs {
			start := time.Now()
			prog, err := load.Load(load.Config{Dir: dir})
			if err != nil {
				t.Fatalf("loading %s: %v", dir, err)
			}
			t.Logf("loaded %s in %v", dir, time.Since(start).Round(time.Millisecond))
			m := vm.New(prog, vm.Options{Checks: vm.Checks{Leak: true}, EntryGrace: gokerGrace, StepTime: int64(gokerStepTime)})
			for _, c := range byDir[dir] {
				name, fn := c.Name, c.Func
				t.Run(name, func(t *testing.T) {
					t.Parallel()
					r := runKernel(m, name, fn, seeds, depth)
					r.goker = c.GoKer
					exp := exps[name]
					bad := r.check(exp)
					mu.Lock()
					results = append(results, r)
					mu.Unlock()
					report := t.Errorf
					if why, ok := knownCoreBugs[name]; ok {
						report = func(format string, args ...any) {
							t.Logf("known VM core bug (%s): "+format, append([]any{why}, args...)...)
						}
					}
					switch {
					case r.failure != "":
						report("%s", r.failure)
					case r.overDepth && depth == gokerDepth:
						// every case ends within the default bound (the
						// wall-time budget is a safety net, not a check)
						report("a run did not end: %s", r.unfinished)
					case len(bad) > 0 && exp == nil:
						t.Logf("no upstream expectation; leaked:\n%s", strings.Join(bad, "\n"))
					case len(bad) > 0:
						report("leaks matching none of the %d expected patterns:\n%s", len(exp.Patterns), strings.Join(bad, "\n"))
					case !r.goker && exp != nil && !exp.Flaky && len(r.matched) < len(exp.Patterns):
						// the micro and pattern cases leak on every schedule
						var missing []string
						for i, p := range exp.Patterns {
							if !r.matched[i] {
								missing = append(missing, p.String())
							}
						}
						report("expected leaks not seen in %d runs:\n%s", r.runs, strings.Join(missing, "\n"))
					}
				})
			}
		}
	})
	sort.Slice(results, func(i, j int) bool { return results[i].name < results[j].name })
	var b strings.Builder
	fmt.Fprintf(&b, "%-26s %4s %5s %-9s %s\n", "kernel", "runs", "leaks", "patterns", "other outcomes / failure")
	completed, showing, total := 0, 0, 0
	gokerDone, gokerTotal, gokerLeaks := 0, 0, 0
	for _, r := range results {
		total++
		exp := exps[r.name]
		pat := "-"
		if exp != nil && len(exp.Patterns) > 0 {
			kind := "must"
			if exp.Flaky {
				kind = "may"
			}
			pat = fmt.Sprintf("%d/%d %s", len(r.matched), len(exp.Patterns), kind)
		}
		note := ""
		for _, k := range []string{"exit", "panic", "deadlock", "fatal", "race", "assert"} {
			if r.other[k] > 0 {
				note += fmt.Sprintf("%s:%d ", k, r.other[k])
			}
		}
		switch {
		case r.failure != "":
			note = "FAIL " + firstLine(r.failure)
		case r.unfinished != "":
			note += "unfinished " + r.unfinished
		default:
			completed++
			if r.goker {
				gokerDone++
			}
		}
		leaky := r.leaks > 0 && len(r.unexpected) == 0 && exp != nil
		if leaky {
			showing++
		}
		if r.goker {
			gokerTotal++
			if leaky {
				gokerLeaks++
			}
		}
		fmt.Fprintf(&b, "%-26s %4d %5d %-9s %s\n", r.name, r.runs, r.leaks, pat, note)
	}
	fmt.Fprintf(&b, "%d/%d cases run to completion on every seed (%d seeds, at most %d transitions); %d show an expected leak; GoKer kernels: %d/%d complete, %d show their leak\n",
		completed, total, len(seeds), depth, showing, gokerDone, gokerTotal, gokerLeaks)
	t.Log("\n" + b.String())
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}
