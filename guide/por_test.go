package guide

import (
	"context"
	"fmt"
	"os"
	"regexp"
	"testing"
	"time"

	"github.com/gmc-go/gmc/internal/goker"
	"github.com/gmc-go/gmc/vm"
	"github.com/gmc-go/gmc/vm/load"
	"github.com/gmc-go/gmc/vm/trace"
)

// porProgram is a program both partial-order reductions explore to the
// end: a benchmark model with its arguments, or a GoKer kernel.
type porProgram struct {
	name   string
	pkg    string // ./benchmarks/NAME, or "" for a GoKer kernel
	args   []string
	kernel string // GoKer kernel name
}

// porPrograms are the programs of BenchmarkPOR: the seed's models with
// and without their bug, and GoKer kernels checked for panics and global
// deadlocks only (their leaks are not errors here, so most are explored
// to the end).
var porPrograms = []porProgram{
	{name: "reorder 2 1", pkg: "./benchmarks/reorder", args: []string{"2", "1"}},
	{name: "reorder_fixed 3 1", pkg: "./benchmarks/reorder_fixed", args: []string{"3", "1"}},
	{name: "twostage_fixed 1 1", pkg: "./benchmarks/twostage_fixed", args: []string{"1", "1"}},
	{name: "wronglock 1 2", pkg: "./benchmarks/wronglock", args: []string{"1", "2"}},
	{name: "wronglock_fixed 1 2", pkg: "./benchmarks/wronglock_fixed", args: []string{"1", "2"}},
	{name: "deadlock_fixed", pkg: "./benchmarks/deadlock_fixed"},
	{name: "Cockroach584", kernel: "Cockroach584"},
	{name: "Etcd6708", kernel: "Etcd6708"},
	{name: "Grpc1424", kernel: "Grpc1424"},
	{name: "Moby30408", kernel: "Moby30408"},
}

// porSetup loads a program of porPrograms.
func porSetup(tb testing.TB, p porProgram) (*vm.Machine, vm.Entry) {
	tb.Helper()
	if p.pkg != "" {
		prog, opts, e := loadMain(tb, p.pkg, p.args)
		return vm.New(prog, opts), e
	}
	cases, err := goker.Cases()
	if err != nil {
		tb.Skip(err)
	}
	for _, c := range cases {
		if c.Name != p.kernel {
			continue
		}
		prog, err := load.Load(load.Config{Dir: c.Dir})
		if err != nil {
			tb.Fatal(err)
		}
		m := vm.New(prog, vm.Options{})
		e, err := m.FindEntry(c.Func)
		if err != nil {
			tb.Fatal(err)
		}
		return m, e
	}
	tb.Skipf("no GoKer kernel %s", p.kernel)
	return nil, vm.Entry{}
}

// porRun runs one of the two searches to the end (or the time limit).
func porRun(m *vm.Machine, e vm.Entry, dpor bool, limit time.Duration) Result {
	se := newSearcher(context.Background(), m, Config{TimeLimit: limit})
	root := m.Start(e)
	if dpor {
		return se.dpor(root, 0)
	}
	return se.exhaustive(root)
}

// TestPOR checks source-DPOR (dpor.go) against the sleep-set search with
// state caching (exhaustive.go) on small programs: the same verdict,
// no-error only when the space was explored to the end. With GMC_POR=1 it
// runs every program of porPrograms and prints the table of
// benchmarks/RESULTS.md (executions, states, time of each search).
func TestPOR(t *testing.T) {
	if testing.Short() {
		t.Skip("loads benchmark programs")
	}
	progs := []porProgram{porPrograms[0], porPrograms[2], porPrograms[5]} // the quick ones
	limit := time.Minute
	table := os.Getenv("GMC_POR") != ""
	if table {
		progs = porPrograms
		if re := os.Getenv("GMC_POR_RUN"); re != "" {
			var sel []porProgram
			for _, p := range porPrograms {
				if regexp.MustCompile(re).MatchString(p.name) {
					sel = append(sel, p)
				}
			}
			progs = sel
		}
	}
	var rows []string
	for _, p := range progs {
		m, e := porSetup(t, p)
		t0 := time.Now()
		ss := porRun(m, e, false, limit)
		t1 := time.Now()
		dp := porRun(m, e, true, limit)
		t2 := time.Now()
		if ss.Verdict == VerdictUnknown || dp.Verdict == VerdictUnknown {
			t.Logf("%s: sleep sets %s, DPOR %s (a search did not end within %v, or claims nothing)", p.name, ss.Verdict, dp.Verdict, limit)
		} else if ss.Verdict != dp.Verdict {
			t.Errorf("%s: sleep sets say %s, DPOR says %s", p.name, ss.Verdict, dp.Verdict)
		}
		rows = append(rows, fmt.Sprintf("| %s | %s | %d | %d | %.2f | %s | %d | %d | %.2f |", p.name,
			ss.Verdict, ss.Stats.Executions, ss.Stats.States, t1.Sub(t0).Seconds(),
			dp.Verdict, dp.Stats.Executions, dp.Stats.States, t2.Sub(t1).Seconds()))
	}
	if table {
		fmt.Println("| program | sleep sets: verdict | executions | states | s | DPOR: verdict | executions | states | s |")
		fmt.Println("|---|---|---|---|---|---|---|---|---|")
		for _, r := range rows {
			fmt.Println(r)
		}
	}
}

// TestDPORStrategy: the dpor strategy of Check finds the bugs of reorder
// 2 1, deadlock (a lock-order deadlock: the Lock of one goroutine and the
// next Lock of the other are ordered through the Unlock between them) and
// twostage 1 1 with counterexamples that replay to the same error, claims
// nothing on mainexit (the goroutine panics only when it runs before main
// returns: its transitions are in no event of an execution where main
// returns first), and claims "no error" with the whole space exhausted on
// reorder_fixed 2 1.
func TestDPORStrategy(t *testing.T) {
	if testing.Short() {
		t.Skip("loads benchmark programs")
	}
	for _, c := range []struct {
		pkg, verdict string
		args         []string
	}{
		{"./benchmarks/reorder", VerdictError, []string{"2", "1"}},
		{"./benchmarks/deadlock", VerdictError, nil},
		{"./benchmarks/twostage", VerdictError, []string{"1", "1"}},
		{"./guide/testdata/mainexit", VerdictUnknown, nil},
		{"./benchmarks/reorder_fixed", VerdictNoError, []string{"2", "1"}},
	} {
		prog, opts, e := loadMain(t, c.pkg, c.args)
		res, err := Check(context.Background(), prog, CheckConfig{Options: opts, Entry: e, Strategy: DPOR, Seed: 1,
			Trials: 1, TimeLimit: time.Minute, MaxDepth: 100000})
		if err != nil {
			t.Fatal(err)
		}
		if res.Verdict != c.verdict {
			t.Fatalf("%s %v: verdict %s, want %s", c.pkg, c.args, res.Verdict, c.verdict)
		}
		if c.verdict == VerdictUnknown {
			continue
		}
		if c.verdict == VerdictNoError {
			if !res.Exhausted {
				t.Errorf("%s: no-error without the space exhausted", c.pkg)
			}
			continue
		}
		b := res.Best
		final, _, err := trace.Replay(b.Machine, e, b.Result.Choices, nil)
		if err != nil || final.Err() == nil || final.Err().Msg != b.Result.Final.Err().Msg {
			t.Errorf("%s: counterexample does not replay to %v: %v, %v", c.pkg, b.Result.Final.Err(), final.Err(), err)
		}
	}
}
