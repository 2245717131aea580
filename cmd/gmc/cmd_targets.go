package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"time"

	"github.com/gmc-go/gmc/abstract"
	"github.com/gmc-go/gmc/abstract/warn"
	"github.com/gmc-go/gmc/slice"
)

func init() { commands["targets"] = runTargets }

type jsonTarget struct {
	Kind    string   `json:"kind"`            // panic, assert, runtime, comment, warning
	Check   string   `json:"check,omitempty"` // the analyzer, for warnings
	Pos     string   `json:"pos"`
	Func    string   `json:"func"`
	Msg     string   `json:"msg"`
	Targets []string `json:"targets"`       // the locations to reach together
	Via     []string `json:"via,omitempty"` // root call sites leading to targets in other packages
}

func runTargets(args []string) int {
	fs := flag.NewFlagSet("targets", flag.ContinueOnError)
	fs.SetOutput(os.Stderr)
	asJSON := fs.Bool("json", false, "print one JSON object")
	runtime := fs.Bool("runtime", false, "also list type assertions and integer divisions that may panic")
	noWarn := fs.Bool("no-warnings", false, "list panic sites and //gmc:target comments only")
	fs.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: gmc targets [--json] [--runtime] PKG")
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
	loaded := time.Now()
	var out []jsonTarget
	comments, err := abstract.CommentTargets(p)
	if err != nil {
		return staticFail(err)
	}
	for _, s := range append(comments, abstract.PanicSites(p, *runtime)...) {
		pos := abstract.Position(p.Fset, s.Loc)
		out = append(out, jsonTarget{Kind: string(s.Kind), Pos: pos, Func: s.Loc.Fn.String(), Msg: s.Msg, Targets: []string{pos}})
	}
	if !*noWarn {
		for _, w := range warn.Run(p, slice.New(p.SSA)) {
			t := jsonTarget{Kind: "warning", Check: w.Check, Pos: abstract.PositionOf(p.Fset, w.Pos), Msg: w.Msg}
			if len(w.Targets) > 0 {
				t.Func = w.Targets[0].Fn.String()
			}
			for _, l := range w.Targets {
				t.Targets = append(t.Targets, abstract.Position(p.Fset, l))
			}
			for _, l := range w.Via {
				t.Via = append(t.Via, abstract.Position(p.Fset, l))
			}
			out = append(out, t)
		}
	}
	elapsed := time.Since(loaded)
	if *asJSON {
		enc := json.NewEncoder(os.Stdout)
		enc.SetIndent("", "  ")
		if out == nil {
			out = []jsonTarget{}
		}
		enc.Encode(struct {
			Targets []jsonTarget   `json:"targets"`
			Stats   map[string]any `json:"stats"`
		}{out, map[string]any{"targets": len(out), "load_s": loaded.Sub(start).Seconds(), "time_s": elapsed.Seconds()}})
		return exitOK
	}
	for _, t := range out {
		kind := t.Kind
		if t.Check != "" {
			kind = t.Check
		}
		fmt.Printf("%-14s %-16s %s", kind, t.Pos, t.Msg)
		if len(t.Targets) > 1 || (len(t.Targets) == 1 && t.Targets[0] != t.Pos) {
			fmt.Printf(" [targets %v]", t.Targets)
		}
		if len(t.Via) > 0 {
			fmt.Printf(" [via %v]", t.Via)
		}
		fmt.Println()
	}
	fmt.Fprintf(os.Stderr, "gmc: %d targets; load %.2fs, static %.2fs\n", len(out), loaded.Sub(start).Seconds(), elapsed.Seconds())
	return exitOK
}
