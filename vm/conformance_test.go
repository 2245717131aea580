package vm_test

import (
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gmc-go/gmc/vm"
	"github.com/gmc-go/gmc/vm/load"
	"github.com/gmc-go/gmc/vm/trace"
)

// conformanceFloor is the number of GOROOT/test `// run` programs (plus
// test/chan) whose output under gmc must match the native output. Raise it
// when the VM improves; the test fails if the count drops below it.
const conformanceFloor = 120

// excluded lists programs that test the toolchain or runtime internals
// rather than the language, with the reason.
var excluded = map[string]string{
	"deferfin.go":       "GC finalizers",
	"finprofiled.go":    "GC finalizers and memory profiling",
	"mallocfin.go":      "GC finalizers",
	"tinyfin.go":        "GC finalizers",
	"stackobj.go":       "GC finalizers (stack objects)",
	"stackobj3.go":      "GC liveness",
	"heapsampling.go":   "heap sampling (runtime.MemProfile)",
	"gcgort.go":         "garbage collector stress",
	"linkobj.go":        "linker flags",
	"linkx_run.go":      "linker flags (-X)",
	"linkmain_run.go":   "builds with the linker",
	"nosplit.go":        "runs the assembler and linker",
	"sigchld.go":        "signals",
	"winbatch.go":       "Windows batch files",
	"nilptr.go":         "relies on unmapped memory pages (256 MB arrays)",
	"nilptr2.go":        "relies on unmapped memory pages",
	"nilptr_aix.go":     "AIX memory layout",
	"slicecap.go":       "the address of an empty substring's bytes (Go keeps the parent's; a VM \"\" has none)",
	"recover4.go":       "memory faults (debug.SetPanicOnFault, mmap)",
	"inline_literal.go": "package reflect (runtime.FuncForPC)",
	"recover.go":        "runtime.Breakpoint and reflect",
	"recover1.go":       "runtime.Breakpoint",
	"chanlinear.go":     "measures wall-clock time of runtime operations",
	"maplinear.go":      "measures wall-clock time of runtime operations",
	"init1.go":          "garbage-collector stress: allocates about 1 GB in one loop",
	"const7.go":         "runs the compiler (os/exec)",
}

// conformancePrograms lists the `// run` programs of GOROOT/test and GOROOT/test/chan.
func conformancePrograms(t *testing.T) (dir string, files []string) {
	dir = filepath.Join(runtime.GOROOT(), "test")
	for _, pattern := range []string{"*.go", "chan/*.go"} {
		matches, _ := filepath.Glob(filepath.Join(dir, pattern))
		for _, m := range matches {
			data, err := os.ReadFile(m)
			if err != nil {
				continue
			}
			first := strings.SplitN(string(data), "\n", 2)[0]
			if strings.TrimSpace(first) == "// run" {
				rel, _ := filepath.Rel(dir, m)
				files = append(files, rel)
			}
		}
	}
	sort.Strings(files)
	if len(files) == 0 {
		t.Skip("no GOROOT/test programs on this machine")
	}
	return dir, files
}

// nativeOutput is the golden output the Go project's own test harness
// (cmd/internal/testdir) checks a `// run` program against: its .out file,
// or nothing when there is none (such a program must print nothing and
// exit 0). No native build is needed.
func nativeOutput(t *testing.T, dir, rel string) (string, bool) {
	path := filepath.Join(dir, rel)
	data, err := os.ReadFile(strings.TrimSuffix(path, ".go") + ".out")
	if err != nil {
		return "", true
	}
	return string(data), true
}

// runUnderVM runs a program file with a seeded random scheduler and returns
// its combined output and error (nil if it exited normally).
func runUnderVM(dir, rel string, seed uint64, budget time.Duration) (string, *vm.Error, bool) {
	path := filepath.Join(dir, rel)
	prog, err := load.Load(load.Config{Dir: filepath.Dir(path), Patterns: []string{filepath.Base(path)}})
	if err != nil {
		return "", &vm.Error{Kind: vm.KindUnsupported, Msg: err.Error()}, true
	}
	m := vm.New(prog, vm.Options{Sched: vm.SchedSync, Env: map[string]string{"GOSSAINTERP": "1"}})
	e, err := m.FindEntry("main")
	if err != nil {
		return "", &vm.Error{Kind: vm.KindUnsupported, Msg: err.Error()}, true
	}
	s := m.Start(e)
	deadline := time.Now().Add(budget)
	rng := seed
	for steps := 0; ; steps++ {
		cs := s.Choices()
		if len(cs) == 0 {
			break
		}
		if steps%1024 == 0 && time.Now().After(deadline) {
			return s.Output(0), nil, false
		}
		rng = rng*6364136223846793005 + 1442695040888963407
		s = m.Step(s, int((rng>>33)%uint64(len(cs))))
	}
	return s.Output(0), s.Err(), true
}

func TestConformance(t *testing.T) {
	if testing.Short() {
		t.Skip("conformance suite is long")
	}
	dir, files := conformancePrograms(t)
	var pass, total atomic.Int32
	var mu sync.Mutex
	var failures []string
	sem := make(chan struct{}, 2)
	var wg sync.WaitGroup
	for _, rel := range files {
		if why, ok := excluded[rel]; ok {
			t.Logf("excluded %s: %s", rel, why)
			continue
		}
		total.Add(1)
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			want, ok := nativeOutput(t, dir, rel)
			if !ok {
				mu.Lock()
				failures = append(failures, rel+": native run failed")
				mu.Unlock()
				return
			}
			got, verr, done := runUnderVM(dir, rel, 1, 15*time.Second)
			reason := ""
			switch {
			case !done:
				reason = "time budget exceeded"
			case verr != nil:
				reason = strings.SplitN(verr.Msg, "\n", 2)[0]
			case got != want:
				reason = "output differs"
			}
			mu.Lock()
			defer mu.Unlock()
			if reason == "" {
				pass.Add(1)
				return
			}
			failures = append(failures, rel+": "+reason)
		}()
	}
	wg.Wait()
	sort.Strings(failures)
	for _, f := range failures {
		t.Logf("FAIL %s", f)
	}
	t.Logf("conformance: %d/%d programs match (%d excluded)", pass.Load(), total.Load(), len(excluded))
	if int(pass.Load()) < conformanceFloor {
		t.Errorf("conformance dropped: %d programs pass, floor is %d", pass.Load(), conformanceFloor)
	}
}

// TestChanDeterminism: every goroutine program of GOROOT/test/chan gives
// the same choices and output for the same seed, and replaying the
// recorded choices reproduces the final state (hash, output, error).
func TestChanDeterminism(t *testing.T) {
	if testing.Short() {
		t.Skip("long")
	}
	dir := filepath.Join(runtime.GOROOT(), "test", "chan")
	files, _ := filepath.Glob(filepath.Join(dir, "*.go"))
	checked := 0
	for _, path := range files {
		data, _ := os.ReadFile(path)
		if !strings.HasPrefix(string(data), "// run\n") {
			continue
		}
		prog, err := load.Load(load.Config{Dir: dir, Patterns: []string{filepath.Base(path)}})
		if err != nil {
			t.Errorf("%s: %v", path, err)
			continue
		}
		m := vm.New(prog, vm.Options{Sched: vm.SchedShared})
		e, err := m.FindEntry("main")
		if err != nil {
			t.Errorf("%s: %v", path, err)
			continue
		}
		for seed := uint64(1); seed <= 3; seed++ {
			const budget = 20000
			start := time.Now()
			s1, c1, _ := trace.RandomRun(m, e, seed, budget, nil)
			if len(c1) >= budget || time.Since(start) > 3*time.Second {
				break // too long to replay within the test's time
			}
			s2, c2, _ := trace.RandomRun(m, e, seed, budget, nil)
			if !slices.Equal(c1, c2) || s1.Output(0) != s2.Output(0) {
				t.Errorf("%s seed %d: two runs differ", filepath.Base(path), seed)
			}
			r, _, err := trace.Replay(m, e, c1, nil)
			if err != nil || r.Hash() != s1.Hash() || r.Output(0) != s1.Output(0) || errString(r.Err()) != errString(s1.Err()) {
				t.Errorf("%s seed %d: replay differs (%v)", filepath.Base(path), seed, err)
			}
			checked++
		}
	}
	t.Logf("%d (program, seed) pairs replayed identically", checked)
	if checked < 20 {
		t.Errorf("only %d runs checked", checked)
	}
}
