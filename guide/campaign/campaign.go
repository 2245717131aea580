package campaign

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"runtime/metrics"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gmc-go/gmc/abstract"
	"github.com/gmc-go/gmc/benchmarks"
	"github.com/gmc-go/gmc/guide"
	"github.com/gmc-go/gmc/vm"
	"github.com/gmc-go/gmc/vm/load"
	"github.com/gmc-go/gmc/vm/loc"
)

// Spec is a campaign, or the shard of one that this process runs.
type Spec struct {
	Suite      []benchmarks.Config // the configurations, in order
	Dir        string              // directory the configurations' pkg paths are relative to
	Strategies []Strategy
	Trials     int
	TimeLimit  time.Duration // per trial
	Seed       uint64
	// MaxBacktrack bounds the guided backtrack set (0: guide's default).
	MaxBacktrack int
	Parallel     int // workers (0: GOMAXPROCS); does not change the results
	Shard        Shard
	// Resume keeps the trials already in the output directory's
	// results.jsonl (of the same campaign and shard) and runs the rest.
	Resume bool
	// Load loads a package (nil: load.Load); tests share loaded programs
	// between campaigns through it.
	Load func(dir, pkg string) (*load.Program, error)
}

// Tasks is the number of tasks of the whole campaign (all shards).
func (sp *Spec) Tasks() int { return len(sp.Suite) * len(sp.Strategies) * sp.Trials }

// task splits task index k into its configuration, strategy and trial.
func (sp *Spec) task(k int) (c, s, t int) {
	t = k % sp.Trials
	k /= sp.Trials
	return k / len(sp.Strategies), k % len(sp.Strategies), t
}

// Manifest describes a campaign in its output directory (campaign.json),
// so that Merge can check that shards belong together and Summarize can
// lay out tables without the suite file.
type Manifest struct {
	Configs      []benchmarks.Config `json:"configs"`
	Strategies   []string            `json:"strategies"`
	Trials       int                 `json:"trials"`
	TimeLimitS   float64             `json:"time_limit_s"`
	Seed         uint64              `json:"seed"`
	MaxBacktrack int                 `json:"max_backtrack"`
	Shard        string              `json:"shard"` // "i/n"
	Tasks        int                 `json:"tasks"` // of the whole campaign
}

// Manifest returns the spec's manifest.
func (sp *Spec) Manifest() Manifest {
	m := Manifest{Configs: sp.Suite, Trials: sp.Trials, TimeLimitS: sp.TimeLimit.Seconds(),
		Seed: sp.Seed, MaxBacktrack: sp.MaxBacktrack, Shard: sp.Shard.String(), Tasks: sp.Tasks()}
	if sp.Shard.Count == 0 {
		m.Shard = "0/1"
	}
	for _, s := range sp.Strategies {
		m.Strategies = append(m.Strategies, s.String())
	}
	return m
}

// Record is the outcome of one trial: one line of results.jsonl.
type Record struct {
	Task       int      `json:"task"`
	Config     string   `json:"config"`
	Pkg        string   `json:"pkg"`
	Entry      string   `json:"entry"`
	Args       []string `json:"args"`
	Expect     string   `json:"expect"`
	Goroutines int      `json:"goroutines"` // goroutines one execution of the configuration starts, main included
	Strategy   string   `json:"strategy"`
	Trial      int      `json:"trial"`
	Seed       uint64   `json:"seed"`
	// Verdict is the trial's: error, no-error, unknown, or failed when
	// the configuration could not be loaded or prepared (Message says why).
	Verdict      string  `json:"verdict"`
	Kind         string  `json:"kind,omitempty"` // of the error found
	Message      string  `json:"message,omitempty"`
	Pos          string  `json:"pos,omitempty"`
	Goal         bool    `json:"goal,omitempty"` // the targets were reached (no error)
	States       int     `json:"states"`
	Transitions  int     `json:"transitions"`
	Instructions int64   `json:"instructions"`
	Backtracks   int     `json:"backtracks"`
	Refinements  int     `json:"refinements"`
	Restarts     int     `json:"restarts"` // guided searches started again after a refinement
	MaxDepth     int     `json:"max_depth"`
	TraceLen     int     `json:"trace_len"` // transitions of the counterexample
	TraceSets    int     `json:"trace_sets"`
	TimeS        float64 `json:"time_s"`
	HeapPeak     uint64  `json:"heap_peak_bytes"` // peak Go heap while the trial ran (process-wide)
	PeakMem      uint64  `json:"peak_mem_bytes"`  // memory obtained from the OS at the trial's end (process-wide)
}

// Found reports whether the trial found an error of the program (not an
// unsupported feature or an internal error of the VM).
func (r *Record) Found() bool {
	return r.Verdict == guide.VerdictError && r.Kind != string(vm.KindUnsupported) && r.Kind != string(vm.KindInternal)
}

// Progress is reported after each finished trial.
type Progress struct {
	Done, Total int // trials of this shard
	Last        *Record
}

// program is a configuration loaded and ready to check.
type program struct {
	prog       *load.Program
	entry      vm.Entry
	opts       vm.Options
	targets    []loc.Loc
	goroutines int
}

// group is the (configuration, strategy) check whose trials share a
// guide.Trials.
type group struct {
	once   sync.Once
	trials *guide.Trials
	err    error
	left   int // tasks of this shard not yet run
}

// runner holds the state of a running campaign.
type runner struct {
	sp *Spec

	mu       sync.Mutex
	pkgs     map[string]*pkgEntry // by pkg path
	pkgLeft  map[string]int       // tasks left per pkg path
	cfgs     []*cfgEntry
	groups   []*group
	heapPeak []atomic.Uint64 // per worker: peak heap while its trial runs
}

type pkgEntry struct {
	once sync.Once
	prog *load.Program
	err  error
}

type cfgEntry struct {
	once sync.Once
	p    *program
	err  error
}

// Run runs the campaign's tasks of sp.Shard and writes them, with the
// summary and plots, to the directory out. progress, if not nil, is
// called after each trial (from one goroutine at a time). A cancelled ctx
// stops the trials running and starts no more; the trials that ended
// before stay in results.jsonl (the cancelled ones are not recorded), and
// a run with sp.Resume carries on from there.
func Run(ctx context.Context, sp Spec, out string, progress func(Progress)) ([]Record, error) {
	if sp.Trials <= 0 {
		return nil, fmt.Errorf("trials must be at least 1")
	}
	if len(sp.Strategies) == 0 || len(sp.Suite) == 0 {
		return nil, fmt.Errorf("no configuration or no strategy to run")
	}
	if sp.Parallel <= 0 {
		sp.Parallel = runtime.GOMAXPROCS(0)
	}
	if sp.Shard.Count == 0 {
		sp.Shard = Shard{0, 1}
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		return nil, err
	}
	man := sp.Manifest()
	prev := map[int]Record{}
	if sp.Resume {
		if old, recs, err := ReadDir(out); err == nil {
			if !reflect.DeepEqual(old, man) {
				return nil, fmt.Errorf("%s holds another campaign or shard (suite, strategies, trials, seed, limits or shard differ): cannot resume it", out)
			}
			for _, r := range recs {
				prev[r.Task] = r
			}
		} else if !errors.Is(err, fs.ErrNotExist) {
			return nil, err
		}
	}
	if err := writeJSONFile(filepath.Join(out, "campaign.json"), man); err != nil {
		return nil, err
	}
	var tasks []int
	for k := 0; k < sp.Tasks(); k++ {
		if sp.Shard.Has(k) {
			tasks = append(tasks, k)
		}
	}
	r := &runner{sp: &sp, pkgs: map[string]*pkgEntry{}, pkgLeft: map[string]int{},
		cfgs: make([]*cfgEntry, len(sp.Suite)), groups: make([]*group, len(sp.Suite)*len(sp.Strategies)),
		heapPeak: make([]atomic.Uint64, sp.Parallel)}
	for i := range r.cfgs {
		r.cfgs[i] = &cfgEntry{}
	}
	for i := range r.groups {
		r.groups[i] = &group{}
	}
	for _, k := range tasks {
		if _, ok := prev[k]; ok {
			continue
		}
		c, s, _ := sp.task(k)
		r.groups[c*len(sp.Strategies)+s].left++
		r.pkgLeft[sp.Suite[c].Pkg]++
	}

	fh, err := os.Create(filepath.Join(out, "results.jsonl"))
	if err != nil {
		return nil, err
	}
	defer fh.Close()
	w := bufio.NewWriter(fh)

	stopSampler := r.sampleHeap()
	defer stopSampler()

	// Workers take tasks in order; results are written in task order.
	records := make([]Record, len(tasks))
	doneFlags := make([]bool, len(tasks))
	var (
		next, written, done int
		mu                  sync.Mutex
		wg                  sync.WaitGroup
		werr                error
	)
	for i, k := range tasks {
		if rec, ok := prev[k]; ok {
			records[i], doneFlags[i] = rec, true
			done++
		}
	}
	for written < len(tasks) && doneFlags[written] {
		if err := writeRecord(w, &records[written]); err != nil {
			return nil, err
		}
		written++
	}
	if err := w.Flush(); err != nil {
		return nil, err
	}
	for wi := 0; wi < sp.Parallel; wi++ {
		wg.Add(1)
		go func(wi int) {
			defer wg.Done()
			for {
				mu.Lock()
				for next < len(tasks) && doneFlags[next] {
					next++ // resumed
				}
				i := next
				if i >= len(tasks) || ctx.Err() != nil {
					mu.Unlock()
					return
				}
				next++
				mu.Unlock()

				rec := r.runTask(ctx, wi, tasks[i])
				if ctx.Err() != nil {
					return // cancelled: not a result
				}

				mu.Lock()
				records[i], doneFlags[i] = rec, true
				done++
				flush := false
				for written < len(tasks) && doneFlags[written] {
					if err := writeRecord(w, &records[written]); err != nil && werr == nil {
						werr = err
					}
					written++
					flush = true
				}
				// keep the file whole line by line, so that an interrupted
				// campaign keeps what it measured
				if err := w.Flush(); flush && err != nil && werr == nil {
					werr = err
				}
				if progress != nil {
					progress(Progress{Done: done, Total: len(tasks), Last: &rec})
				}
				mu.Unlock()
			}
		}(wi)
	}
	wg.Wait()
	if ctx.Err() != nil {
		// interrupted: keep the trials that ended after a gap too (out of
		// order; a resumed run or a merge puts them in order)
		for i := written; i < len(tasks); i++ {
			if doneFlags[i] {
				if err := writeRecord(w, &records[i]); err != nil && werr == nil {
					werr = err
				}
			}
		}
	}
	records = records[:written]
	if err := w.Flush(); err != nil && werr == nil {
		werr = err
	}
	if werr != nil {
		return records, werr
	}
	if err := ctx.Err(); err != nil {
		return records, fmt.Errorf("campaign interrupted after %d of %d trials: %w", written, len(tasks), err)
	}
	return records, WriteReport(out, man, records)
}

// runTask runs task k on worker wi.
func (r *runner) runTask(ctx context.Context, wi, k int) Record {
	sp := r.sp
	c, s, t := sp.task(k)
	cfg, st := sp.Suite[c], sp.Strategies[s]
	rec := Record{Task: k, Config: cfg.Name, Pkg: cfg.Pkg, Entry: cfg.Entry, Args: cfg.Args,
		Expect: cfg.Expect, Strategy: st.String(), Trial: t, Seed: sp.Seed + uint64(t)}
	if rec.Args == nil {
		rec.Args = []string{}
	}
	defer r.release(c, s)
	p, err := r.program(c)
	if err != nil {
		rec.Verdict, rec.Message = "failed", err.Error()
		return rec
	}
	rec.Goroutines = p.goroutines
	g := r.groups[c*len(sp.Strategies)+s]
	g.once.Do(func() {
		g.trials, g.err = guide.Prepare(p.prog, guide.CheckConfig{
			Options: p.opts, Entry: p.entry, Targets: p.targets, Auto: len(p.targets) == 0,
			Strategy: st.Search, Heuristic: st.Heuristic, Seed: sp.Seed, Trials: sp.Trials,
			TimeLimit: sp.TimeLimit, MaxBacktrack: sp.MaxBacktrack, NoRefine: st.NoRefine,
			Eager: st.Eager, RestartRefine: st.Restart,
			FallbackTimers: p.entry.Kind != vm.EntryMain, // as gmc check does
		})
	})
	if g.err != nil {
		rec.Verdict, rec.Message = "failed", g.err.Error()
		return rec
	}
	r.heapPeak[wi].Store(heapBytes())
	tr := g.trials.Run(ctx, t)
	res := tr.Result
	rec.Verdict = res.Verdict
	if res.Final != nil {
		if e := res.Final.Err(); e != nil {
			rec.Kind, rec.Message, rec.Pos = string(e.Kind), e.Msg, e.Pos
		}
	}
	rec.Goal = res.Goal
	st2 := res.Stats
	rec.States, rec.Transitions, rec.Instructions = st2.States, st2.Transitions, st2.Instructions
	rec.Backtracks, rec.Refinements, rec.MaxDepth = st2.Backtracks, st2.Refinements, st2.MaxDepth
	rec.Restarts = st2.Restarts
	if res.Verdict == guide.VerdictError {
		rec.TraceLen = len(res.Choices)
	}
	rec.TraceSets = g.trials.TraceSets()
	rec.TimeS = st2.Time.Seconds()
	rec.HeapPeak = max(r.heapPeak[wi].Swap(0), heapBytes())
	rec.PeakMem = st2.PeakMem
	return rec
}

// program loads configuration c (once; the package once for all its
// configurations).
func (r *runner) program(c int) (*program, error) {
	ce := r.cfgs[c]
	ce.once.Do(func() {
		cfg := r.sp.Suite[c]
		r.mu.Lock()
		pe := r.pkgs[cfg.Pkg]
		if pe == nil {
			pe = &pkgEntry{}
			r.pkgs[cfg.Pkg] = pe
		}
		r.mu.Unlock()
		pe.once.Do(func() {
			if r.sp.Load != nil {
				pe.prog, pe.err = r.sp.Load(r.sp.Dir, cfg.Pkg)
			} else {
				pe.prog, pe.err = load.Load(load.Config{Dir: r.sp.Dir, Patterns: []string{cfg.Pkg}})
			}
		})
		if pe.err != nil {
			ce.err = pe.err
			return
		}
		ce.p, ce.err = prepareConfig(pe.prog, cfg)
	})
	return ce.p, ce.err
}

// prepareConfig finds the entry and targets of a configuration and counts
// its goroutines. The checks follow the configuration's expectation the
// way a user would ask for them: races when a race is expected, leaks for
// test and fuzz entries and when a leak is expected; a fuzz entry's
// arguments are symbolic.
func prepareConfig(prog *load.Program, cfg benchmarks.Config) (*program, error) {
	opts := vm.Options{Args: cfg.Args}
	opts.Checks.Race = cfg.Expect == string(vm.KindRace)
	m := vm.New(prog, opts)
	e, err := m.FindEntry(cfg.Entry)
	if err != nil {
		return nil, err
	}
	if e.Kind != vm.EntryMain || cfg.Expect == string(vm.KindLeak) {
		opts.Checks.Leak = true
		opts.Symbolic = e.Kind == vm.EntryFuzz // the fuzz arguments are inputs, as gmc check makes them
		m = vm.New(prog, opts)
	}
	p := &program{prog: prog, entry: e, opts: opts}
	sites, err := abstract.CommentTargets(prog)
	if err != nil {
		return nil, err
	}
	for _, s := range sites {
		p.targets = append(p.targets, s.Loc)
	}
	p.goroutines = countGoroutines(m, e)
	return p, nil
}

// countGoroutines runs one execution that always takes the first choice
// (bounded) and counts the distinct goroutines it sees, main included.
func countGoroutines(m *vm.Machine, e vm.Entry) int {
	seen := map[int]bool{}
	s := m.Start(e)
	for i := 0; ; i++ {
		for _, id := range s.GoroutineIDs() {
			seen[id] = true
		}
		if i >= 100000 || s.Err() != nil || len(s.Choices()) == 0 {
			break
		}
		s = m.Step(s, 0)
	}
	return len(seen)
}

// release counts task (c, s) done and drops what no remaining task needs.
func (r *runner) release(c, s int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	g := r.groups[c*len(r.sp.Strategies)+s]
	if g.left--; g.left == 0 {
		g.trials = nil
	}
	pkg := r.sp.Suite[c].Pkg
	if r.pkgLeft[pkg]--; r.pkgLeft[pkg] == 0 {
		for i, cfg := range r.sp.Suite {
			if cfg.Pkg == pkg {
				r.cfgs[i].p = nil
			}
		}
		if pe := r.pkgs[pkg]; pe != nil {
			pe.prog = nil
		}
	}
}

// sampleHeap records, every 20 ms, the heap size into each worker's peak;
// the returned function stops it.
func (r *runner) sampleHeap() func() {
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		tk := time.NewTicker(20 * time.Millisecond)
		defer tk.Stop()
		for {
			select {
			case <-stop:
				return
			case <-tk.C:
				h := heapBytes()
				for i := range r.heapPeak {
					for {
						old := r.heapPeak[i].Load()
						if old == 0 || old >= h || r.heapPeak[i].CompareAndSwap(old, h) {
							break
						}
					}
				}
			}
		}
	}()
	return func() { close(stop); <-done }
}

// heapBytes is the memory of the Go heap's objects, live or not yet
// collected (runtime/metrics; no stop-the-world).
func heapBytes() uint64 {
	s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return s[0].Value.Uint64()
}

func writeRecord(w *bufio.Writer, rec *Record) error {
	b, err := json.Marshal(rec)
	if err != nil {
		return err
	}
	w.Write(b)
	return w.WriteByte('\n')
}

func writeJSONFile(path string, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, append(b, '\n'), 0o644)
}
