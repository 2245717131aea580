package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"time"

	"github.com/gmc-go/gmc/guide"
	"github.com/gmc-go/gmc/guide/campaign"
	"github.com/schollz/progressbar/v3"
)

func init() { commands["bench"] = runBench }

// runBench implements `gmc bench`: a campaign of strategies ×
// configurations × trials (package guide/campaign), and `gmc bench merge`.
func runBench(args []string) int {
	if len(args) > 0 && args[0] == "merge" {
		return runBenchMerge(args[1:])
	}
	fs := flag.NewFlagSet("bench", flag.ContinueOnError)
	var (
		strategies   = fs.String("strategies", campaign.DefaultStrategies, "comma-separated strategies: guided[:pfsm|fsm|random|prefer-threads], dfs, rdfs, random, bfs, exhaustive")
		trials       = fs.Int("trials", 10, "trials per configuration and strategy (trial t has seed seed+t)")
		timeLimit    = fs.Duration("time-limit", 60*time.Second, "time limit of each trial")
		filter       = fs.String("filter", "", "run only the configurations whose name matches this regular expression")
		out          = fs.String("out", "bench-out", "output directory: campaign.json, results.jsonl, summary.csv, summary.md, *.svg, *.png")
		parallel     = fs.Int("parallel", runtime.GOMAXPROCS(0), "trials run at once, on as many cores (does not change the results)")
		shard        = fs.String("shard", "0/1", "run shard i/n of the campaign's trials (merge the shards with 'gmc bench merge')")
		seed         = fs.Uint64("seed", 1, "seed of trial 0")
		maxBacktrack = fs.Int("max-backtrack", 100000, "capacity of the guided search's backtrack set")
		quiet        = fs.Bool("quiet", false, "no progress and no summary on the terminal")
		resume       = fs.Bool("resume", false, "keep the trials already in --out (same campaign and shard) and run the others")
		eager        = fs.Bool("eager", false, "the guided strategies run every successor of a state before ranking them (the seed's; as the suffix /eager)")
	)
	fs.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: gmc bench [flags] [SUITE.json]\n       gmc bench merge [--out DIR] [--strategies LIST] [--allow-missing] SHARD_DIR...")
		fs.PrintDefaults()
	}
	pos, _, err := parseInterleaved(fs, args)
	if err != nil {
		return exitUsage
	}
	if len(pos) > 1 {
		return usageErr("bench takes at most one suite file (got %d); see 'gmc bench -h'", len(pos))
	}
	suitePath := ""
	if len(pos) == 1 {
		suitePath = pos[0]
	}
	sp := campaign.Spec{Trials: *trials, TimeLimit: *timeLimit, Seed: *seed, MaxBacktrack: *maxBacktrack, Parallel: *parallel, Resume: *resume}
	if sp.Strategies, err = campaign.ParseStrategies(*strategies); err != nil {
		return usageErr("--strategies: %v", err)
	}
	if *eager {
		for i := range sp.Strategies {
			if sp.Strategies[i].Search == guide.Guided {
				sp.Strategies[i].Eager = true
			}
		}
	}
	if sp.Shard, err = campaign.ParseShard(*shard); err != nil {
		return usageErr("--shard: %v", err)
	}
	if *trials < 1 || *parallel < 1 {
		return usageErr("--trials and --parallel must be at least 1")
	}
	suite, dir, err := campaign.LoadSuite(suitePath)
	if err != nil {
		return usageErr("%v", err)
	}
	if sp.Suite, err = campaign.Filter(suite, *filter); err != nil {
		return usageErr("%v", err)
	}
	sp.Dir = dir

	tuneGC() // (gc.go)
	// --parallel P runs on P cores, the collector's work included, so that
	// shards can share a machine core by core (GOMAXPROCS overrides)
	if os.Getenv("GOMAXPROCS") == "" {
		runtime.GOMAXPROCS(min(*parallel, runtime.NumCPU()))
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	total := 0
	for k := 0; k < sp.Tasks(); k++ {
		if sp.Shard.Has(k) {
			total++
		}
	}
	if !*quiet {
		fmt.Fprintf(os.Stderr, "gmc bench: %d configurations × %d strategies × %d trials", len(sp.Suite), len(sp.Strategies), sp.Trials)
		if sp.Shard.Count > 1 {
			fmt.Fprintf(os.Stderr, ", shard %s: %d trials", sp.Shard, total)
		}
		fmt.Fprintf(os.Stderr, ", %d at once, time limit %s → %s\n", sp.Parallel, sp.TimeLimit, *out)
	}
	start := time.Now()
	bar := newBenchProgress(os.Stderr, total, *quiet)
	_, err = campaign.Run(ctx, sp, *out, bar.update)
	bar.finish()
	if err != nil {
		fmt.Fprintf(os.Stderr, "gmc bench: %v\n", err)
		return exitInternal
	}
	if !*quiet {
		fmt.Fprintf(os.Stderr, "gmc bench: %d trials in %s; results in %s\n", total, time.Since(start).Round(time.Second), *out)
		printSummary(*out)
	}
	return exitOK
}

// runBenchMerge implements `gmc bench merge`.
func runBenchMerge(args []string) int {
	fs := flag.NewFlagSet("bench merge", flag.ContinueOnError)
	out := fs.String("out", "bench-out", "output directory of the merged campaign")
	allowMissing := fs.Bool("allow-missing", false, "merge even if shards or trials are missing (the summary counts the trials present)")
	quiet := fs.Bool("quiet", false, "do not print the summary")
	view := fs.String("strategies", "", "keep only these strategies, in this order (a view of the campaign, e.g. the seed's Table 4.1: guided:random,guided:fsm,guided:pfsm)")
	fs.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: gmc bench merge [--out DIR] [--strategies LIST] SHARD_DIR...")
		fs.PrintDefaults()
	}
	dirs, _, err := parseInterleaved(fs, args)
	if err != nil {
		return exitUsage
	}
	if len(dirs) == 0 {
		return usageErr("bench merge takes the output directories of the shards; see 'gmc bench merge -h'")
	}
	for _, d := range dirs {
		if filepath.Clean(d) == filepath.Clean(*out) {
			return usageErr("--out %s is one of the shard directories; merge into another directory", *out)
		}
	}
	opts := campaign.MergeOptions{AllowMissing: *allowMissing}
	if *view != "" {
		ss, err := campaign.ParseStrategies(*view)
		if err != nil {
			return usageErr("--strategies: %v", err)
		}
		for _, s := range ss {
			opts.Strategies = append(opts.Strategies, s.String())
		}
	}
	_, recs, err := campaign.Merge(dirs, *out, opts)
	if err != nil {
		return usageErr("bench merge: %v", err)
	}
	if !*quiet {
		fmt.Fprintf(os.Stderr, "gmc bench merge: %d shards, %d trials → %s\n", len(dirs), len(recs), *out)
		printSummary(*out)
	}
	return exitOK
}

// printSummary copies DIR/summary.md to stdout.
func printSummary(dir string) {
	fh, err := os.Open(filepath.Join(dir, "summary.md"))
	if err != nil {
		return
	}
	defer fh.Close()
	io.Copy(os.Stdout, fh)
}

// benchProgress shows a campaign's progress: a progress bar on a terminal,
// a line every 30 seconds otherwise (logs of batch jobs).
type benchProgress struct {
	w     io.Writer
	bar   *progressbar.ProgressBar
	quiet bool
	start time.Time
	last  time.Time
}

func newBenchProgress(w *os.File, total int, quiet bool) *benchProgress {
	p := &benchProgress{w: w, quiet: quiet, start: time.Now(), last: time.Now()}
	if fi, err := w.Stat(); err == nil && fi.Mode()&os.ModeCharDevice != 0 && !quiet {
		p.bar = progressbar.NewOptions(total, progressbar.OptionSetWriter(w), progressbar.OptionShowCount(),
			progressbar.OptionSetPredictTime(true), progressbar.OptionSetElapsedTime(true),
			progressbar.OptionThrottle(200*time.Millisecond), progressbar.OptionSetWidth(30),
			progressbar.OptionClearOnFinish(), progressbar.OptionSetDescription("bench"))
	}
	return p
}

func (p *benchProgress) update(pr campaign.Progress) {
	if p.quiet {
		return
	}
	if p.bar != nil {
		p.bar.Describe(fmt.Sprintf("%-24s %-14s", pr.Last.Config, pr.Last.Strategy))
		p.bar.Set(pr.Done)
		return
	}
	if now := time.Now(); now.Sub(p.last) >= 30*time.Second || pr.Done == pr.Total {
		p.last = now
		fmt.Fprintf(p.w, "gmc bench: %d/%d trials, %s elapsed (last: %s %s trial %d: %s)\n", pr.Done, pr.Total,
			now.Sub(p.start).Round(time.Second), pr.Last.Config, pr.Last.Strategy, pr.Last.Trial, pr.Last.Verdict)
	}
}

func (p *benchProgress) finish() {
	if p.bar != nil {
		p.bar.Finish()
	}
}
