package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/gmc-go/gmc/abstract"
	"github.com/gmc-go/gmc/slice"
	"github.com/gmc-go/gmc/vm"
	"github.com/gmc-go/gmc/vm/load"
	"github.com/gmc-go/gmc/vm/loc"
	"golang.org/x/tools/go/ssa"
)

func init() { commands["slice"] = runSlice }

// targetFlags is a repeatable --target flag.
type targetFlags []string

func (t *targetFlags) String() string     { return strings.Join(*t, ",") }
func (t *targetFlags) Set(s string) error { *t = append(*t, s); return nil }

// staticLoad loads PKG (a directory or a package pattern) for the static
// commands.
func staticLoad(pkg string) (*load.Program, error) {
	if st, err := os.Stat(pkg); err == nil && st.IsDir() {
		return load.Load(load.Config{Dir: pkg, Patterns: []string{"."}})
	}
	return load.Load(load.Config{Patterns: []string{pkg}})
}

// staticFail prints a user error (one line) and returns exit code 2.
func staticFail(err error) int {
	msg := err.Error()
	if i := strings.IndexByte(msg, '\n'); i >= 0 {
		msg = msg[:i]
	}
	fmt.Fprintln(os.Stderr, msg)
	return exitUsage
}

// staticEntries resolves --entry (empty: the package's default entries).
func staticEntries(p *load.Program, name string) ([]*ssa.Function, error) {
	if name != "" {
		fn, err := vm.RootEntryFunc(p, name)
		if err != nil {
			return nil, err
		}
		return []*ssa.Function{fn}, nil
	}
	es := vm.DefaultEntryFuncs(p)
	if len(es) == 0 {
		return nil, errors.New("gmc: no entry: the package has no main and no tests; use --entry")
	}
	return es, nil
}

func runSlice(args []string) int {
	fs := flag.NewFlagSet("slice", flag.ContinueOnError)
	fs.SetOutput(os.Stderr)
	var targets targetFlags
	fs.Var(&targets, "target", "target location `file.go:LINE` (repeatable; default: the //gmc:target comments)")
	dot := fs.Bool("dot", false, "print the abstract system as a Graphviz digraph")
	asJSON := fs.Bool("json", false, "print one JSON object")
	entry := fs.String("entry", "", "entry function (default: main, or the package's tests)")
	sets := fs.Int("sets", 4, "number of abstract trace sets to print")
	fs.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: gmc slice [--dot] [--json] [--entry F] PKG --target file.go:LINE ...")
		fs.PrintDefaults()
	}
	if err := fs.Parse(reorderFlags(fs, args)); err != nil {
		return exitUsage
	}
	if fs.NArg() != 1 {
		fs.Usage()
		return exitUsage
	}
	start := time.Now()
	p, err := staticLoad(fs.Arg(0))
	if err != nil {
		return staticFail(err)
	}
	var locs []loc.Loc
	for _, spec := range targets {
		l, err := abstract.ParseTarget(p, spec)
		if err != nil {
			return staticFail(err)
		}
		locs = append(locs, l)
	}
	if len(locs) == 0 {
		sites, err := abstract.CommentTargets(p)
		if err != nil {
			return staticFail(err)
		}
		for _, s := range sites {
			locs = append(locs, s.Loc)
		}
	}
	if len(locs) == 0 {
		return staticFail(errors.New("gmc slice: no target: give --target file.go:LINE or mark a line //gmc:target"))
	}
	entries, err := staticEntries(p, *entry)
	if err != nil {
		return staticFail(err)
	}
	loaded := time.Now()
	sys, err := abstract.Build(slice.New(p.SSA), abstract.Config{Targets: locs, Entries: entries})
	if err != nil {
		fmt.Fprintln(os.Stderr, "gmc: internal error:", err)
		return exitInternal
	}
	ts := sys.TraceSets(abstract.Limits{Sets: *sets})
	elapsed := time.Since(loaded)
	switch {
	case *asJSON:
		writeSliceJSON(os.Stdout, p, sys, ts, elapsed, loaded.Sub(start))
	case *dot:
		sys.WriteDot(os.Stdout, p.Fset, ts)
	default:
		sys.WriteText(os.Stdout, p.Fset, ts)
		fmt.Fprintf(os.Stderr, "gmc: load %.2fs, static %.2fs\n", loaded.Sub(start).Seconds(), elapsed.Seconds())
	}
	return exitOK
}

// reorderFlags lets flags follow the package argument (gmc slice PKG
// --target F:L), as the DESIGN's synopsis writes them.
func reorderFlags(fs *flag.FlagSet, args []string) []string {
	var flags, rest []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			rest = append(rest, args[i+1:]...)
			break
		}
		if strings.HasPrefix(a, "-") && len(a) > 1 {
			flags = append(flags, a)
			name := strings.TrimLeft(a, "-")
			if j := strings.IndexByte(name, '='); j >= 0 {
				continue
			}
			if f := fs.Lookup(name); f != nil {
				if bf, ok := f.Value.(interface{ IsBoolFlag() bool }); ok && bf.IsBoolFlag() {
					continue
				}
				if i+1 < len(args) {
					i++
					flags = append(flags, args[i])
				}
			}
			continue
		}
		rest = append(rest, a)
	}
	return append(flags, rest...)
}

type jsonLoc struct {
	ID    int    `json:"id"`
	Pos   string `json:"pos"`
	Func  string `json:"func"`
	Kind  string `json:"kind"`
	Succs []int  `json:"succs,omitempty"`
	Lock  string `json:"lock,omitempty"`
}

type jsonEdge struct {
	From int    `json:"from"`
	To   int    `json:"to"`
	Kind string `json:"kind"`
	Succ int    `json:"succ"`
}

type jsonStep struct {
	ID   int    `json:"id"`
	Pos  string `json:"pos"`
	Kind string `json:"kind"`
	Succ int    `json:"succ"`
}

type jsonTrace struct {
	Target string     `json:"target"`
	Calls  int        `json:"calls"`
	Steps  []jsonStep `json:"steps"`
}

type jsonTraceSet struct {
	Calls  int         `json:"calls"`
	Traces []jsonTrace `json:"traces"`
}

func writeSliceJSON(w io.Writer, p *load.Program, sys *abstract.System, sets []abstract.TraceSet, static, loadTime time.Duration) {
	id := map[loc.Loc]int{}
	out := struct {
		Targets   []string       `json:"targets"`
		Locations []jsonLoc      `json:"locations"`
		Edges     []jsonEdge     `json:"edges"`
		TraceSets []jsonTraceSet `json:"trace_sets"`
		Stats     map[string]any `json:"stats"`
	}{Locations: []jsonLoc{}, Edges: []jsonEdge{}, TraceSets: []jsonTraceSet{}}
	for _, t := range sys.Targets {
		out.Targets = append(out.Targets, abstract.Position(p.Fset, t))
	}
	for i, l := range sys.Locs() {
		id[l] = i
		n := sys.Nodes[l]
		out.Locations = append(out.Locations, jsonLoc{i, abstract.Position(p.Fset, l), l.Fn.String(), n.Kind.String(), n.Succs, n.Lock})
	}
	for _, l := range sys.Locs() {
		for _, e := range sys.Edges[l] {
			out.Edges = append(out.Edges, jsonEdge{id[l], id[e.To], e.Kind.String(), e.Succ})
		}
	}
	for _, ts := range sets {
		js := jsonTraceSet{Calls: ts.Calls}
		for _, t := range ts.Traces {
			jt := jsonTrace{Target: abstract.Position(p.Fset, t.Target()), Calls: t.Calls}
			for _, st := range t.Steps {
				jt.Steps = append(jt.Steps, jsonStep{id[st.Loc], abstract.Position(p.Fset, st.Loc), st.Kind.String(), st.Succ})
			}
			js.Traces = append(js.Traces, jt)
		}
		out.TraceSets = append(out.TraceSets, js)
	}
	out.Stats = map[string]any{
		"locations": len(out.Locations), "edges": len(out.Edges), "trace_sets": len(sets),
		"load_s": loadTime.Seconds(), "time_s": static.Seconds(),
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.Encode(out)
}
