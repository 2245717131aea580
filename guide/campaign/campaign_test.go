package campaign

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gmc-go/gmc/benchmarks"
	"github.com/gmc-go/gmc/vm/load"
)

func TestParseStrategies(t *testing.T) {
	for _, tc := range []struct {
		in, want, err string
	}{
		{in: "guided:pfsm,rdfs", want: "guided:pfsm,rdfs"},
		{in: "guided, guided:random ,exhaustive", want: "guided:pfsm,guided:random,exhaustive"},
		{in: DefaultStrategies, want: DefaultStrategies},
		{in: "guided:prefer-threads,guided:fsm,bfs,dfs,random", want: "guided:prefer-threads,guided:fsm,bfs,dfs,random"},
		{in: "guided:pfsm/no-refine,guided:random/no-refine", want: "guided:pfsm/no-refine,guided:random/no-refine"},
		{in: "guided:astar", err: "unknown heuristic"},
		{in: "rdfs:pfsm", err: "only guided takes a heuristic"},
		{in: "chess", err: "unknown strategy"},
		{in: "rdfs,rdfs", err: "given twice"},
		{in: " , ", err: "no strategy"},
	} {
		ss, err := ParseStrategies(tc.in)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("ParseStrategies(%q) = %v, %v; want error %q", tc.in, ss, err, tc.err)
			}
			continue
		}
		var got []string
		for _, s := range ss {
			got = append(got, s.String())
		}
		if err != nil || strings.Join(got, ",") != tc.want {
			t.Errorf("ParseStrategies(%q) = %v, %v; want %s", tc.in, got, err, tc.want)
		}
	}
}

func TestParseShard(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want Shard
		ok   bool
	}{
		{"0/1", Shard{0, 1}, true},
		{"3/4", Shard{3, 4}, true},
		{"4/4", Shard{}, false},
		{"-1/4", Shard{}, false},
		{"1/0", Shard{}, false},
		{"1", Shard{}, false},
		{"a/b", Shard{}, false},
	} {
		got, err := ParseShard(tc.in)
		if (err == nil) != tc.ok || got != tc.want {
			t.Errorf("ParseShard(%q) = %v, %v; want %v (ok %v)", tc.in, got, err, tc.want, tc.ok)
		}
	}
	// the shards of n partition the tasks
	for n := 1; n <= 5; n++ {
		for k := 0; k < 40; k++ {
			owners := 0
			for i := 0; i < n; i++ {
				if (Shard{i, n}).Has(k) {
					owners++
				}
			}
			if owners != 1 {
				t.Fatalf("task %d belongs to %d of %d shards", k, owners, n)
			}
		}
	}
}

// sharedLoader loads each package once for all the campaigns of a test.
func sharedLoader() func(dir, pkg string) (*load.Program, error) {
	var mu sync.Mutex
	type entry struct {
		p   *load.Program
		err error
	}
	cache := map[string]entry{}
	return func(dir, pkg string) (*load.Program, error) {
		mu.Lock()
		defer mu.Unlock()
		if e, ok := cache[pkg]; ok {
			return e.p, e.err
		}
		p, err := load.Load(load.Config{Dir: dir, Patterns: []string{pkg}})
		cache[pkg] = entry{p, err}
		return p, err
	}
}

// normalized returns the records as JSON lines without what depends on
// the machine's speed and load (times, memory).
func normalized(t *testing.T, recs []Record) string {
	var b bytes.Buffer
	for _, r := range recs {
		r.TimeS, r.HeapPeak, r.PeakMem = 0, 0, 0
		j, err := json.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		b.Write(j)
		b.WriteByte('\n')
	}
	return b.String()
}

// summaryOf is the markdown summary of records with times and memory
// zeroed.
func summaryOf(t *testing.T, man Manifest, recs []Record) string {
	var clean []Record
	for _, r := range recs {
		r.TimeS, r.HeapPeak, r.PeakMem = 0, 0, 0
		clean = append(clean, r)
	}
	var b bytes.Buffer
	if err := Summarize(man, clean).WriteMarkdown(&b); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// TestDeterminism checks that a campaign gives the same trials (except
// times and memory) with 1 and 2 workers, as one run and as 4 shards
// merged, and when interrupted and resumed; and that the files written
// agree with the records.
func TestDeterminism(t *testing.T) {
	suite, dir, err := LoadSuite("")
	if err != nil {
		t.Fatal(err)
	}
	// small configurations whose trials all end (error or exhausted
	// space) long before the time limit, so that no outcome depends on
	// the machine's speed
	if suite, err = Filter(suite, `^(deadlock-1|reorder-1-1)$`); err != nil {
		t.Fatal(err)
	}
	strategies, err := ParseStrategies("guided:pfsm,rdfs,random,dfs")
	if err != nil {
		t.Fatal(err)
	}
	base := Spec{Suite: suite, Dir: dir, Strategies: strategies, Trials: 2, TimeLimit: 60 * time.Second,
		Seed: 7, Load: sharedLoader()}
	tmp := t.TempDir()
	run := func(name string, parallel int, shard Shard) []Record {
		t.Helper()
		sp := base
		sp.Parallel, sp.Shard = parallel, shard
		var calls int
		recs, err := Run(context.Background(), sp, filepath.Join(tmp, name), func(p Progress) {
			calls++
			if p.Done != calls || p.Last == nil {
				t.Errorf("%s: progress %d/%d after %d calls", name, p.Done, p.Total, calls)
			}
		})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		for _, r := range recs {
			if r.Verdict == "failed" {
				t.Fatalf("%s: %s %s failed: %s", name, r.Config, r.Strategy, r.Message)
			}
		}
		return recs
	}

	one := run("p1", 1, Shard{})
	if len(one) != base.Tasks() {
		t.Fatalf("%d records, want %d", len(one), base.Tasks())
	}
	for k, r := range one {
		if r.Task != k {
			t.Fatalf("record %d is task %d: results out of order", k, r.Task)
		}
	}
	found := 0
	for _, r := range one {
		if r.Found() {
			found++
		}
	}
	if found == 0 {
		t.Fatalf("no trial found an error")
	}
	two := run("p2", 2, Shard{})
	if a, b := normalized(t, one), normalized(t, two); a != b {
		t.Errorf("--parallel 1 and 2 differ:\n%s\nvs\n%s", a, b)
	}

	// interrupted after 5 trials, then resumed
	ctx, cancel := context.WithCancel(context.Background())
	sp := base
	sp.Parallel = 2
	rdir := filepath.Join(tmp, "resumed")
	if _, err := Run(ctx, sp, rdir, func(p Progress) {
		if p.Done == 5 {
			cancel()
		}
	}); err == nil || !strings.Contains(err.Error(), "interrupted") {
		t.Fatalf("interrupted run: err = %v", err)
	}
	if _, part, err := ReadDir(rdir); err != nil || len(part) < 5 || len(part) >= len(one) {
		t.Fatalf("interrupted run kept %d trials (%v)", len(part), err)
	}
	sp.Resume = true
	resumed, err := Run(context.Background(), sp, rdir, nil)
	if err != nil {
		t.Fatal(err)
	}
	if a, b := normalized(t, one), normalized(t, resumed); a != b {
		t.Errorf("one run and an interrupted, resumed run differ:\n%s\nvs\n%s", a, b)
	}
	sp.Trials = 3
	if _, err := Run(context.Background(), sp, rdir, nil); err == nil || !strings.Contains(err.Error(), "cannot resume") {
		t.Errorf("resuming another campaign: err = %v", err)
	}

	var dirs []string
	for i := 0; i < 4; i++ {
		name := fmt.Sprintf("shard%d", i)
		recs := run(name, 2, Shard{i, 4})
		for _, r := range recs {
			if r.Task%4 != i {
				t.Errorf("shard %d ran task %d", i, r.Task)
			}
		}
		dirs = append(dirs, filepath.Join(tmp, name))
	}
	if _, _, err := Merge(dirs[:3], filepath.Join(tmp, "partial"), MergeOptions{}); err == nil || !strings.Contains(err.Error(), "3 of 4 shards") {
		t.Errorf("merge of 3 of 4 shards: err = %v", err)
	}
	if _, _, err := Merge([]string{dirs[0], dirs[0]}, filepath.Join(tmp, "twice"), MergeOptions{}); err == nil || !strings.Contains(err.Error(), "twice") {
		t.Errorf("merge of a shard twice: err = %v", err)
	}
	man, merged, err := Merge(dirs, filepath.Join(tmp, "merged"), MergeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if a, b := normalized(t, one), normalized(t, merged); a != b {
		t.Errorf("one run and 4 shards merged differ:\n%s\nvs\n%s", a, b)
	}
	man1, recs1, err := ReadDir(filepath.Join(tmp, "p1"))
	if err != nil {
		t.Fatal(err)
	}
	if a, b := summaryOf(t, man1, recs1), summaryOf(t, man, merged); a != b {
		t.Errorf("summaries differ:\n%s\nvs\n%s", a, b)
	}
	if normalized(t, recs1) != normalized(t, one) {
		t.Errorf("results.jsonl does not hold the records Run returned")
	}
	// a view of two strategies, in another order
	vman, view, err := Merge([]string{filepath.Join(tmp, "p1")}, filepath.Join(tmp, "view"), MergeOptions{Strategies: []string{"rdfs", "guided:pfsm"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(view) != 2*2*2 || vman.Tasks != len(view) || strings.Join(vman.Strategies, ",") != "rdfs,guided:pfsm" {
		t.Errorf("view: %d records, manifest %+v", len(view), vman)
	}
	if _, _, err := Merge([]string{filepath.Join(tmp, "p1")}, filepath.Join(tmp, "view2"), MergeOptions{Strategies: []string{"bfs"}}); err == nil {
		t.Errorf("a view of a strategy the campaign lacks: no error")
	}
	for _, d := range []string{"p1", "merged"} {
		for _, f := range []string{"campaign.json", "results.jsonl", "summary.csv", "summary.md",
			"states-reorder.svg", "states-reorder.png", "states-deadlock.png"} {
			if fi, err := os.Stat(filepath.Join(tmp, d, f)); err != nil || fi.Size() == 0 {
				t.Errorf("%s/%s: missing or empty (%v)", d, f, err)
			}
		}
	}
}

// TestSummarize checks the density, the statistics over the successful
// trials and the overhead ratio on hand-made records.
func TestSummarize(t *testing.T) {
	man := Manifest{Strategies: []string{"rdfs", "guided:pfsm"}, Trials: 4}
	man.Configs = append(man.Configs, benchmarks.Config{Name: "m-1", Pkg: "./benchmarks/m", Expect: "deadlock"})
	recs := []Record{
		{Config: "m-1", Strategy: "rdfs", Verdict: "error", Kind: "deadlock", States: 10, TraceLen: 5, TimeS: 1},
		{Config: "m-1", Strategy: "rdfs", Verdict: "error", Kind: "leak", States: 30, TraceLen: 5, TimeS: 3},
		{Config: "m-1", Strategy: "rdfs", Verdict: "unknown", States: 1000, TimeS: 20},
		{Config: "m-1", Strategy: "rdfs", Verdict: "error", Kind: "unsupported", States: 2},
		{Config: "m-1", Strategy: "guided:pfsm", Verdict: "error", Kind: "panic", States: 8, TraceLen: 4, Goroutines: 3},
		{Config: "m-1", Strategy: "guided:pfsm", Verdict: "no-error", States: 50, Goroutines: 3},
	}
	sm := Summarize(man, recs)
	r := sm.Row(0, 0)
	if r.Trials != 4 || r.Found != 2 || r.Unknown != 1 || r.Failed != 1 || r.Density != 0.5 || r.WrongKind != 0 {
		t.Errorf("rdfs row: %+v", r)
	}
	if r.States != (Stat{N: 2, Min: 10, Avg: 20, Max: 30}) || r.Overhead != 4 || r.Time.Avg != 2 {
		t.Errorf("rdfs stats: states %+v overhead %v time %+v", r.States, r.Overhead, r.Time)
	}
	g := sm.Row(0, 1)
	if g.Trials != 2 || g.Found != 1 || g.NoError != 1 || g.WrongKind != 1 || g.Overhead != 2 || g.Goroutines != 3 {
		t.Errorf("guided row: %+v", g)
	}
	var md bytes.Buffer
	if err := sm.WriteMarkdown(&md); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"| m-1 | 3 | 0.50 [1 failed] | 0.50 (1/2) [1 other error] [1 no-error] |", "10/20/30"} {
		if !strings.Contains(md.String(), want) {
			t.Errorf("summary.md lacks %q:\n%s", want, md.String())
		}
	}
}
