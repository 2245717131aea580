// Command gmc is a guided model checker for Go programs.
//
// Usage:
//
//	gmc run     [flags] PKG [-- ARGS]    one execution under the VM (seeded random scheduler)
//	gmc check   [flags] PKG [-- ARGS]    search for an error or target
//	gmc replay  [flags] TRACE.json       re-execute a recorded counterexample
//	gmc targets [flags] PKG              candidate targets: analyzer warnings and panic sites
//	gmc confirm [flags] PKG [-- ARGS]    a verdict per static warning (gmc's, go vet's,
//	                                     staticcheck's, SARIF logs): confirmed, infeasible,
//	                                     unreached, unknown
//	gmc slice   [flags] PKG --target F:L the abstract system and traces (text, --dot)
//	gmc bench   [flags] [SUITE.json]     strategies × configurations × trials
//
// Exit codes: 0 no error found (replay: not reproduced), 1 error found
// (replay: reproduced), 2 usage or load error, 3 internal error. A test
// that skipped in every execution explored (verdict "skip", go test's
// SKIP) exits 0 as a no-error verdict does.
//
// This package holds flags, output formats and exit codes only; the
// algorithms live in vm, slice, abstract, heuristics, guide and refine.
package main

import (
	"fmt"
	"os"
	"runtime"
	"sort"
	"time"
)

// Exit codes (DESIGN §4).
const (
	exitOK       = 0
	exitFound    = 1
	exitUsage    = 2
	exitInternal = 3
)

// commands maps a subcommand name to its implementation; each cmd_*.go file
// registers its own in an init function.
var commands = map[string]func(args []string) int{}

func main() {
	os.Exit(dispatch(os.Args[1:]))
}

func dispatch(args []string) (code int) {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		usage()
		return exitUsage
	}
	cmd, ok := commands[args[0]]
	if !ok {
		fmt.Fprintf(os.Stderr, "gmc: unknown command %q (run 'gmc help')\n", args[0])
		return exitUsage
	}
	if f := os.Getenv("GMC_CPUPROFILE"); f != "" {
		if stop := startCPUProfile(f); stop != nil {
			defer stop()
		}
	}
	if f := os.Getenv("GMC_MEMPROFILE"); f != "" {
		if at, err := time.ParseDuration(os.Getenv("GMC_MEMPROFILE_AT")); err == nil && at > 0 {
			// the heap in the middle of a search rather than after it
			time.AfterFunc(at, func() { runtime.GC(); writeHeapProfile(f) })
		} else {
			defer writeHeapProfile(f)
		}
	}
	if os.Getenv("GMC_DEBUG") != "" {
		return cmd(args[1:]) // let internal panics print their Go stack
	}
	defer func() {
		if r := recover(); r != nil {
			fmt.Fprintf(os.Stderr, "gmc: internal error: %v\n", r)
			code = exitInternal
		}
	}()
	return cmd(args[1:])
}

func usage() {
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	fmt.Fprintln(os.Stderr, "usage: gmc <command> [flags] ...")
	fmt.Fprintln(os.Stderr, "commands:")
	for _, n := range names {
		fmt.Fprintf(os.Stderr, "  %s\n", n)
	}
	fmt.Fprintln(os.Stderr, "run 'gmc <command> -h' for a command's flags")
}
