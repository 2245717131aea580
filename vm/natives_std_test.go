package vm_test

import (
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gmc-go/gmc/guide"
	"github.com/gmc-go/gmc/vm"
	"github.com/gmc-go/gmc/vm/load"
	"github.com/gmc-go/gmc/vm/trace"
)

// stdlibCases are the cases of testdata/stdlib with the output of the
// program built by Go (stdout and stderr together; math/rand's global
// generator is checked by TestStdlibDeterministicRand), or, for a panicking case, the first line Go prints.
// stdlibCase is a case of testdata/stdlib: its argument, the output Go
// prints, or the first line of the panic it raises.
type stdlibCase struct {
	name  string
	out   string // expected output
	panic string // expected panic message (instead of out)
}

var stdlibCases = []stdlibCase{
	{"errors", `wrap: base true true true
true 3 false
true v
"base\ncode 4" true
true 4 true
true false
true true false
true 7
true wrap: base
3 true unsupported operation
`, ""},
	{"errors-as-nil", "", "panic: errors: target cannot be nil"},
	{"pagesize", "4096\n", ""},
	{"clock-start", "true true true true true true\n", ""},
	{"timer-max", "not fired\ntrue\n", ""},
	{"gc-forced", "2 true true true true true\n", ""},
	{"gc-counts", "true true true true true true true\n", ""},
	{"signal-string", "terminated interrupt signal 99 true\n", ""},
	{"bits-carry", "1 1 0 1 18446744073709551614 1 1 0 18446744073709551614 1 65536 0\n0 8 41 63 64 64 17\n" +
		"1881676372353657772546716040589641726257477229849409426207693797722198701224860897069000 15241578753238836750495351562412741998489559520973784484210\n", ""},
	{"gcstats", "0 0s 0 0 [0s 0s 0s 0s 0s] 0 0\n", ""},
	{"linkname", "true true true true\n", ""},
	{"sliceheader-data", "5 true\n", ""},
	{"stringer-verbs", "unknown state: 7 one 7 756e6b6e6f776e2073746174653a20323535 \"one\"     3|\ncode 4 4 code 5\n", ""},
	{"errors-as-nonptr", "", "panic: errors: target must be a non-nil pointer"},
	{"math", `1.4142135623730951 +Inf -Inf true true
-2 2 -2 3 3 NaN
4609434218613702656 2 1065353216 true
1024 1 5 3 9223372036854775807 -9223372036854775808 3.141592653589793
0.5 4 8 63 128
1.5s 1.5 2562047h47m16.854775807s
1h2m3s <nil>
`, ""},
	{"strings", `[a b  c] 3 p-q
ababab bbb cca
HÉLLO abc t hi
true true 4 3
true 3 true 2
key value true Hello World x
IBM [a b c] [a b.c]
0;1;2;!é 9
again
read me
`, ""},
	{"builder-copy", "", "panic: strings: illegal use of non-zero Builder copied by value"},
	{"repeat-negative", "", "panic: strings: negative Repeat count"},
	{"bytes-unicode-strconv", `hello 003.1 11 true true
UP in 1
true false true ß true
3 5 false
世 3 ü
-45 "tab\there" 0.3333 11111111
0 strconv.Atoi: parsing "12a": invalid syntax
true Atoi true
2500 <nil> true 255 strconv.ParseUint: parsing "300": value out of range
"a\nb" <nil> n=42
`, ""},
	{"sort", `[1 2 5 9] [apple fig pear] [-1 0 2.5] 2 true
[{b 20} {c 25} {a 30}]
[fig pear apple]
[9 5 2 1]
[1 2 3] [apple fig pear] 3 1
`, ""},
	{"unique", "true false x y\neth0 true false\n", ""},
	{"from-source", "true\n1 4 0\n", ""},
	{"rand", `true true true
5 37 true [0 4 5 2 3 1]
[3 5 2 1 6 4]
769 11371241257079532652 true [1 3 0 2]
true true
`, ""},
	{"atomic", `10 5 true 11 20
false true true true
<nil>
first first true third
true true 1 1 2
true 7 8 9
1099511627777 1099511627777 1
`, ""},
	{"atomic-value-nil", "", "panic: sync/atomic: store of nil value into Value"},
	{"atomic-value-type", "", "panic: sync/atomic: store of inconsistently typed value into Value"},
	{"syncmap-pool", `1 true
1 true 3 false
2 true true false
3 true
1
false
1 reused 2 2
false
true
`, ""},
	{"once", `11 11 11
3 EOF
`, ""},
	{"syncmap-unhashable", "", "panic: runtime error: hash of unhashable type []int"},
	{"context", `cancelled: context canceled
42 <nil> 42 context.TODO.WithValue(main.key, int)
context canceled base <nil>
after false
false <nil> context.Background true
`, ""},
	{"flag", `7 true 2m0s def [rest -x] 2 <nil>
`, ""},
	{"log", `pfx: to stderr 1
[out] n=2
0 pfx: 
`, ""},
	{"pprof", `goroutine <nil> true
true true
in Do
`, ""},
	{"time-source", `2021-06-17 09:10:00 +0000 UTC 1623921000 2021 Thursday 2021-07-17T09:10:00Z
2263 1677
2023-11-14 22:13:20.000000005 +0000 UTC 1 -1 0 5000000
1.5s 2m0s true false
true true true true
true Local Local
2024-02-29 13:45:00 +0000 UTC <nil> 2024-02-29 13:00:00 +0000 UTC
`, ""},
	{"bigint-crc32", `85070591730234615847396907784232501249 85070591730234615847396907784232501249 123456789021569050938089343697 1 1267650600228229401496703205376
1/3 0.33333 1.5
907060870 2591144780
`, ""},
	{"now-advances", "true true true true\n", ""},
	{"now-monotonic", "false false true\nfalse true true\n", ""},
	{"executable", "true true <nil>\n", ""},
	{"timers", `true
drained
false false true
no stale tick
`, ""},
	{"alloc-packed", "10485760 7 0\n", ""},
	{"afterfunc-reset", `false
false false
true false
ok
`, ""},
}

// runStdlib runs case name of testdata/stdlib under the VM (seed 1).
func runStdlib(t *testing.T, prog *load.Program, name string, checks vm.Checks) *vm.State {
	t.Helper()
	m := vm.New(prog, vm.Options{Args: []string{name}, Checks: checks})
	e, err := m.FindEntry("main")
	if err != nil {
		t.Fatal(err)
	}
	s, _, _ := trace.RandomRun(m, e, 1, 1e6, nil)
	return s
}

var stdlibProg = sync.OnceValues(func() (*load.Program, error) {
	return load.Load(load.Config{Dir: "testdata/stdlib"})
})

// loadStdlib loads testdata/stdlib once for all the tests.
func loadStdlib(t *testing.T) *load.Program {
	t.Helper()
	prog, err := stdlibProg()
	if err != nil {
		t.Fatal(err)
	}
	return prog
}

// TestStdlibNatives: the natively modelled and interpreted standard library
// behaves as Go's (errors, math, strings, bytes, unicode, strconv, sort,
// math/rand, sync/atomic, sync.Map/Pool, context, flag, log, pprof).
func TestStdlibNatives(t *testing.T) {
	prog := loadStdlib(t)
	for _, c := range stdlibCases {
		t.Run(c.name, func(t *testing.T) { checkStdlibCase(t, prog, c) })
	}
}

// TestStdlibVirtualTime: timeouts fire when every goroutine blocks, at the
// virtual time they are due, without waiting.
func TestStdlibVirtualTime(t *testing.T) {
	prog := loadStdlib(t)
	start := time.Now()
	s := runStdlib(t, prog, "timeout", vm.Checks{})
	if err := s.Err(); err != nil {
		t.Fatalf("%s: %s", err.Kind, err.Msg)
	}
	want := "context deadline exceeded true 1h0m0s\ntrue 1m0s\ncontext canceled\n"
	if got := s.Output(0); got != want {
		t.Errorf("output %q, want %q", got, want)
	}
	if c := time.Duration(s.Clock()); c < time.Hour || c > time.Hour+10*time.Microsecond {
		t.Errorf("virtual clock %v, want 1h (plus the few ns clock readings and µs timer wake-ups cost)", c)
	}
	if d := time.Since(start); d > time.Minute {
		t.Errorf("a one-hour timeout took %v of real time", d)
	}
}

// TestStdlibSleepMeasured: outside a synctest bubble, the time a goroutine
// measures across a timer's wait is more than the timer's duration (as on
// every machine: the wake-up takes time), and not by much.
func TestStdlibSleepMeasured(t *testing.T) {
	s := runStdlib(t, loadStdlib(t), "sleep-measured", vm.Checks{})
	if err := s.Err(); err != nil {
		t.Fatalf("%s: %s", err.Kind, err.Msg)
	}
	if got := s.Output(0); got != "true true\n" {
		t.Errorf("output %q, want more than 400ms and less than 401ms", got)
	}
}

// TestStdlibDeterministicRand: the global generators draw from the VM's
// deterministic runtime_rand, math/rand's as with Go's default GODEBUG
// (randautoseed=1: runtimeSource, no lock, no 607-word state), so two runs
// draw the same numbers and math/rand's global draws what math/rand/v2's
// does (Go with randautoseed=0 would print the sequence of seed 1 instead:
// 5577006791947779410 for math/rand's first Uint64).
func TestStdlibDeterministicRand(t *testing.T) {
	prog := loadStdlib(t)
	var first string
	for seed := 0; seed < 2; seed++ {
		s := runStdlib(t, prog, "rand-global", vm.Checks{})
		if err := s.Err(); err != nil {
			t.Fatalf("%s: %s", err.Kind, err.Msg)
		}
		out := s.Output(0)
		if seed == 0 {
			first = out
		} else if out != first {
			t.Errorf("two runs differ: %q and %q", first, out)
		}
	}
	var outs [2]string
	for i, c := range []string{"rand-global-v1", "rand-global-v2"} {
		s := runStdlib(t, prog, c, vm.Checks{})
		if err := s.Err(); err != nil {
			t.Fatalf("%s: %s: %s", c, err.Kind, err.Msg)
		}
		outs[i] = s.Output(0)
	}
	if outs[0] != outs[1] || strings.HasPrefix(outs[0], "5577006791947779410 ") {
		t.Errorf("math/rand's global drew %q, math/rand/v2's %q: want the same numbers (runtime_rand's)", outs[0], outs[1])
	}
}

// TestStdlibFlagUsage: a bad flag prints the usage (flag is interpreted,
// its reflection on flag values modelled) and exits with status 2.
func TestStdlibFlagUsage(t *testing.T) {
	prog := loadStdlib(t)
	s := runStdlib(t, prog, "flag-bad", vm.Checks{})
	err := s.Err()
	if err == nil || err.Kind != vm.KindFatal || err.Msg != "exit status 2" {
		t.Fatalf("got %v, want exit status 2", err)
	}
	want := "flag provided but not defined: -bad\nUsage of prog:\n  -d duration\n    \tduration (default 1s)\n  -n int\n    \tcount (default 3)\n"
	if got := s.Output(0); got != want {
		t.Errorf("output %q, want %q", got, want)
	}
}

// TestStdlibContextLeak: a goroutine waiting for a context that is never
// cancelled is a leak (where it blocks before main returns), reported with
// the runtime's wait reason.
func TestStdlibContextLeak(t *testing.T) {
	prog := loadStdlib(t)
	// main ends the process: the leak is in the schedules where the
	// goroutine blocks before main returns
	m := vm.New(prog, vm.Options{Args: []string{"context-leak"}, Checks: vm.Checks{Leak: true}})
	e, err0 := m.FindEntry("main")
	if err0 != nil {
		t.Fatal(err0)
	}
	res := guide.Search(t.Context(), m, e, guide.Config{Strategy: guide.Exhaustive, MaxStates: 100000})
	var err *vm.Error
	if res.Final != nil {
		err = res.Final.Err()
	}
	if err == nil || err.Kind != vm.KindLeak || len(err.Goroutines) != 1 {
		t.Fatalf("got %v, want a leak of one goroutine", err)
	}
	if g := err.Goroutines[0]; g.Wait != "chan receive" || !strings.HasPrefix(g.Start, "main.init.func") {
		t.Errorf("leaked goroutine %s [%s], want a main.init.funcN.1 [chan receive]", g.Start, g.Wait)
	}
}

// checkStdlibCase runs case c of prog and checks its output or panic.
func checkStdlibCase(t *testing.T, prog *load.Program, c stdlibCase) {
	t.Helper()
	s := runStdlib(t, prog, c.name, vm.Checks{})
	err := s.Err()
	if c.panic != "" {
		kind := vm.KindPanic
		if strings.HasPrefix(c.panic, "fatal error: ") {
			kind = vm.KindFatal
		}
		if err == nil || err.Kind != kind || strings.SplitN(err.Msg, "\n", 2)[0] != c.panic {
			t.Fatalf("got error %v, want %q", err, c.panic)
		}
		return
	}
	if err != nil {
		t.Fatalf("error: %s: %s", err.Kind, err.Msg)
	}
	if got := s.Output(0); got != c.out {
		t.Errorf("output:\n%s\nwant:\n%s", got, c.out)
	}
}

// TestStdlibOSBoundary: files are read from the real file system, relative
// to the package's directory (package os from its source); a call that
// reaches the operating system without a model (a pipe) stops the run
// with an unsupported error that names the OS boundary; so do recursion
// deeper than the VM holds and an object larger than it holds.
func TestStdlibOSBoundary(t *testing.T) {
	prog := loadStdlib(t)
	s := runStdlib(t, prog, "readfile", vm.Checks{})
	if err := s.Err(); err != nil || s.Output(0) != "// Uses of the standard library that gmc models natively or interprets. <nil>\n" {
		t.Errorf("readfile: %v %q", err, s.Output(0))
	}
	for name, want := range map[string]string{
		"pipe": "OS boundary: call of syscall.Pipe2",
		// Go dies of a stack overflow; gmc stops rather than guess the depth
		// (a String method formatting itself with %v recurses through fmt
		// run from source the same way: case stringer-recursive, not run
		// here as its million frames take minutes)
		"recurse-forever": "a call more than 1,048,576 frames deep",
		// so does an object larger than the VM holds: cells, or bytes
		// (packed.go)
		"alloc-limit":        "an allocation of [10485760]string (more than the VM's 4194304 cells",
		"alloc-limit-packed": "an allocation of 2147483648 bytes (more than the VM's 1073741824 for one object)",
	} {
		s := runStdlib(t, prog, name, vm.Checks{})
		if err := s.Err(); err == nil || err.Kind != vm.KindUnsupported || !strings.Contains(err.Msg, want) {
			t.Errorf("%s: got %v, want unsupported: %s", name, err, want)
		}
	}
}
