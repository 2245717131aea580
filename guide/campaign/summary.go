package campaign

import (
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/gmc-go/gmc/benchmarks"
)

// Stat is the minimum, mean and maximum of a measure over some trials.
type Stat struct {
	N             int
	Min, Avg, Max float64
}

func statOf(xs []float64) Stat {
	if len(xs) == 0 {
		return Stat{}
	}
	s := Stat{N: len(xs), Min: math.Inf(1), Max: math.Inf(-1)}
	sum := 0.0
	for _, x := range xs {
		sum += x
		s.Min = math.Min(s.Min, x)
		s.Max = math.Max(s.Max, x)
	}
	s.Avg = sum / float64(len(xs))
	return s
}

// Row summarizes the trials of one configuration under one strategy.
// States, Transitions, Time, HeapPeak and TraceLen are over the successful
// trials (those that found an error); AllTime is over every trial.
type Row struct {
	Config     benchmarks.Config
	Goroutines int
	Strategy   string
	Trials     int // trials run
	Found      int // trials that found an error
	WrongKind  int // of Found: an error other than the one the configuration expects
	NoError    int // trials that exhausted the space without an error
	Unknown    int // trials stopped by a bound (time, depth, states)
	Failed     int // trials that could not run (load or preparation error, unsupported feature)
	Density    float64
	States     Stat
	Transition Stat
	Time       Stat
	AllTime    Stat
	AllStates  Stat
	HeapPeak   Stat
	TraceLen   Stat
	// Overhead is the states generated per counterexample transition: the
	// mean states over the mean counterexample length of the successful
	// trials (1 means the search never strayed from the error path).
	Overhead float64
}

// Summary is a campaign's table: one row per configuration and strategy,
// in suite order and strategy order.
type Summary struct {
	Manifest Manifest
	Rows     []Row
}

// Row returns the row of configuration c and strategy s.
func (sm *Summary) Row(c, s int) *Row { return &sm.Rows[c*len(sm.Manifest.Strategies)+s] }

// Goroutines returns the goroutine count of configuration c (0 when no
// trial of it ran).
func (sm *Summary) Goroutines(c int) int {
	g := 0
	for s := range sm.Manifest.Strategies {
		g = max(g, sm.Row(c, s).Goroutines)
	}
	return g
}

// Summarize builds the summary of a campaign's records.
func Summarize(man Manifest, recs []Record) *Summary {
	sm := &Summary{Manifest: man}
	idx := map[string]int{}
	for _, cfg := range man.Configs {
		for _, st := range man.Strategies {
			idx[cfg.Name+"\x00"+st] = len(sm.Rows)
			sm.Rows = append(sm.Rows, Row{Config: cfg, Strategy: st})
		}
	}
	type acc struct{ states, trans, time, all, allStates, heap, tlen []float64 }
	accs := make([]acc, len(sm.Rows))
	for i := range recs {
		r := &recs[i]
		j, ok := idx[r.Config+"\x00"+r.Strategy]
		if !ok {
			continue
		}
		row, a := &sm.Rows[j], &accs[j]
		row.Trials++
		if r.Goroutines > 0 {
			row.Goroutines = r.Goroutines
		}
		a.all = append(a.all, r.TimeS)
		a.allStates = append(a.allStates, float64(r.States))
		switch {
		case r.Found():
			row.Found++
			if !r.Goal && !kindMatches(row.Config.Expect, r.Kind) {
				row.WrongKind++
			}
			a.states = append(a.states, float64(r.States))
			a.trans = append(a.trans, float64(r.Transitions))
			a.time = append(a.time, r.TimeS)
			a.heap = append(a.heap, float64(r.HeapPeak))
			a.tlen = append(a.tlen, float64(r.TraceLen))
		case r.Verdict == "no-error":
			row.NoError++
		case r.Verdict == "failed" || r.Verdict == "error":
			// could not load, or the VM met an unsupported feature
			row.Failed++
		default:
			row.Unknown++
		}
	}
	for j := range sm.Rows {
		row, a := &sm.Rows[j], &accs[j]
		if row.Trials > 0 {
			row.Density = float64(row.Found) / float64(row.Trials)
		}
		row.States, row.Transition, row.Time = statOf(a.states), statOf(a.trans), statOf(a.time)
		row.AllTime, row.HeapPeak, row.TraceLen = statOf(a.all), statOf(a.heap), statOf(a.tlen)
		row.AllStates = statOf(a.allStates)
		if row.TraceLen.Avg > 0 {
			row.Overhead = row.States.Avg / row.TraceLen.Avg
		}
	}
	return sm
}

// kindMatches reports whether an error of kind k is the one a
// configuration expecting want has: a global deadlock, a leak and a hang
// are faces of goroutines blocked forever, and a data race may surface as the
// panic it causes.
func kindMatches(want, k string) bool {
	switch want {
	case k:
		return true
	case "deadlock", "leak", "hang":
		return k == "deadlock" || k == "leak" || k == "hang"
	case "race":
		return k == "race" || k == "panic"
	}
	return false
}

// WriteReport writes results.jsonl's companions into dir: summary.csv,
// summary.md and the plots.
func WriteReport(dir string, man Manifest, recs []Record) error {
	sm := Summarize(man, recs)
	for name, write := range map[string]func(io.Writer) error{
		"summary.csv": sm.WriteCSV,
		"summary.md":  sm.WriteMarkdown,
	} {
		fh, err := os.Create(filepath.Join(dir, name))
		if err != nil {
			return err
		}
		err = write(fh)
		if cerr := fh.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return err
		}
	}
	return sm.WritePlots(dir)
}

// WriteCSV writes one line per configuration and strategy.
func (sm *Summary) WriteCSV(w io.Writer) error {
	cw := csv.NewWriter(w)
	head := []string{"config", "pkg", "entry", "args", "expect", "hard", "goroutines", "strategy",
		"trials", "found", "density", "wrong_kind", "no_error", "unknown", "failed"}
	for _, m := range []string{"states", "transitions", "time_s", "heap_peak_bytes", "trace_len"} {
		head = append(head, m+"_min", m+"_avg", m+"_max")
	}
	head = append(head, "overhead", "time_all_avg_s", "states_all_avg")
	cw.Write(head)
	f := func(x float64) string { return strconv.FormatFloat(x, 'g', 10, 64) }
	for _, r := range sm.Rows {
		line := []string{r.Config.Name, r.Config.Pkg, r.Config.Entry, strings.Join(r.Config.Args, " "),
			r.Config.Expect, strconv.FormatBool(r.Config.Hard), strconv.Itoa(r.Goroutines), r.Strategy,
			strconv.Itoa(r.Trials), strconv.Itoa(r.Found), f(r.Density), strconv.Itoa(r.WrongKind),
			strconv.Itoa(r.NoError), strconv.Itoa(r.Unknown), strconv.Itoa(r.Failed)}
		for _, s := range []Stat{r.States, r.Transition, r.Time, r.HeapPeak, r.TraceLen} {
			if s.N == 0 {
				line = append(line, "", "", "")
			} else {
				line = append(line, f(s.Min), f(s.Avg), f(s.Max))
			}
		}
		line = append(line, f(r.Overhead), f(r.AllTime.Avg), f(r.AllStates.Avg))
		cw.Write(line)
	}
	cw.Flush()
	return cw.Error()
}

// WriteMarkdown writes the seed's tables: error density per strategy
// (Table 3.1), states, time and memory of the successful trials (Table
// 4.1), and counterexample length with the overhead ratio.
func (sm *Summary) WriteMarkdown(w io.Writer) error {
	man := sm.Manifest
	var b strings.Builder
	fmt.Fprintf(&b, "Campaign: %d configurations × %d strategies × %d trials, seed %d, time limit %gs per trial",
		len(man.Configs), len(man.Strategies), man.Trials, man.Seed, man.TimeLimitS)
	if man.Shard != "" && man.Shard != "0/1" {
		fmt.Fprintf(&b, ", shard %s", man.Shard)
	}
	b.WriteString(".\n\n")

	b.WriteString("### Error density (trials that found the error / trials)\n\n")
	b.WriteString("| configuration | goroutines |")
	for _, s := range man.Strategies {
		fmt.Fprintf(&b, " %s |", s)
	}
	b.WriteString("\n|---|---:|" + strings.Repeat("---:|", len(man.Strategies)) + "\n")
	for c, cfg := range man.Configs {
		fmt.Fprintf(&b, "| %s | %s |", cfg.Name, intOrDash(sm.Goroutines(c)))
		for s := range man.Strategies {
			r := sm.Row(c, s)
			if r.Trials == 0 {
				b.WriteString(" — |")
				continue
			}
			fmt.Fprintf(&b, " %.2f", r.Density)
			if r.Trials != man.Trials {
				fmt.Fprintf(&b, " (%d/%d)", r.Found, r.Trials)
			}
			if r.WrongKind > 0 {
				fmt.Fprintf(&b, " [%d other error]", r.WrongKind)
			}
			if r.Failed > 0 {
				fmt.Fprintf(&b, " [%d failed]", r.Failed)
			}
			if r.NoError > 0 {
				fmt.Fprintf(&b, " [%d no-error]", r.NoError)
			}
			b.WriteString(" |")
		}
		b.WriteString("\n")
	}

	sm.writeTable(&b, "States, time and memory of the trials that found the error",
		"States generated before the error (min/avg/max), average time to the error, average peak Go heap.",
		[]string{"states", "time (s)", "heap (MB)"}, func(r *Row) []string {
			if r.States.N == 0 {
				return nil
			}
			return []string{num(r.States.Min) + "/" + num(r.States.Avg) + "/" + num(r.States.Max),
				fmt.Sprintf("%.2f", r.Time.Avg), fmt.Sprintf("%.0f", r.HeapPeak.Avg/(1<<20))}
		})
	sm.writeTable(&b, "Counterexample length and overhead ratio",
		"Average counterexample length in transitions, and the overhead ratio: average states generated per counterexample transition.",
		[]string{"length", "overhead"}, func(r *Row) []string {
			if r.TraceLen.N == 0 {
				return nil
			}
			return []string{num(r.TraceLen.Avg), fmt.Sprintf("%.1f", r.Overhead)}
		})
	sm.writeTable(&b, "Work of all trials",
		"Average states generated and time per trial, whether it found the error or not (states per second in parentheses).",
		[]string{"states", "time (s)"}, func(r *Row) []string {
			if r.Trials == 0 {
				return nil
			}
			rate := ""
			if r.AllTime.Avg > 0 {
				rate = fmt.Sprintf(" (%s/s)", num(r.AllStates.Avg/r.AllTime.Avg))
			}
			return []string{num(r.AllStates.Avg), fmt.Sprintf("%.2f%s", r.AllTime.Avg, rate)}
		})

	b.WriteString("\n### The seed's figures for these configurations\n\n")
	for _, cfg := range man.Configs {
		if cfg.SeedRef != "" {
			fmt.Fprintf(&b, "- %s: %s\n", cfg.Name, cfg.SeedRef)
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// writeTable writes a section with a table of one row per configuration
// and, per strategy, the columns cols (the first one named after the
// strategy); cells gives a row's cells for one strategy, nil for dashes.
func (sm *Summary) writeTable(b *strings.Builder, title, intro string, cols []string, cells func(*Row) []string) {
	man := sm.Manifest
	fmt.Fprintf(b, "\n### %s\n\n%s\n\n| configuration |", title, intro)
	for _, s := range man.Strategies {
		fmt.Fprintf(b, " %s %s |", s, strings.Join(cols, " | "))
	}
	b.WriteString("\n|---|" + strings.Repeat(strings.Repeat("---:|", len(cols)), len(man.Strategies)) + "\n")
	for c, cfg := range man.Configs {
		fmt.Fprintf(b, "| %s |", cfg.Name)
		for s := range man.Strategies {
			cs := cells(sm.Row(c, s))
			if cs == nil {
				cs = make([]string, len(cols))
				for i := range cs {
					cs[i] = "—"
				}
			}
			b.WriteString(" " + strings.Join(cs, " | ") + " |")
		}
		b.WriteString("\n")
	}
}

// num formats a count: integers as they are, averages with one decimal
// below 100 and rounded above.
func num(x float64) string {
	switch {
	case x == math.Trunc(x):
		return strconv.FormatFloat(x, 'f', 0, 64)
	case x < 100:
		return strconv.FormatFloat(x, 'f', 1, 64)
	}
	return strconv.FormatFloat(math.Round(x), 'f', 0, 64)
}

func intOrDash(n int) string {
	if n == 0 {
		return "—"
	}
	return strconv.Itoa(n)
}
