package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/gmc-go/gmc/guide/check"
	"github.com/gmc-go/gmc/vm/trace"
)

// flipTraceFile is where the failing trace of a harmful race goes beside
// the race's trace file.
func flipTraceFile(path string) string {
	return strings.TrimSuffix(path, ".json") + ".harmful.json"
}

// writeFlipTrace writes the failing trace of a harmful race beside the
// race's trace file (nothing for other outcomes).
func writeFlipTrace(o *check.Outcome, raceTrace string) error {
	e := o.Report.Error
	if e == nil || e.Flip == nil || e.Flip.Trace == nil || raceTrace == "" {
		return nil
	}
	e.Flip.TraceFile = flipTraceFile(raceTrace)
	return writeTraceFile(e.Flip.TraceFile, e.Flip.Trace, e.Flip.Error)
}

// printFlip says whether a flipped race is harmful.
func printFlip(w io.Writer, e *trace.ErrorInfo) {
	if e == nil || e.Flip == nil {
		return
	}
	fl := e.Flip
	switch {
	case e.Harmful == nil:
		fmt.Fprintf(w, "gmc: race flipped: harmful unknown (%s; %s states)\n", fl.Cut, thousands(fl.States))
	case *e.Harmful:
		replay := "check with --out F.json, then gmc replay F.harmful.json"
		if fl.TraceFile != "" {
			replay = "gmc replay " + shellQuote(fl.TraceFile)
		}
		fmt.Fprintf(w, "gmc: race flipped: harmful: %s at %s with the accesses %s (replay: %s)\n", fl.Error.Kind, fileLine(fl.Error.Pos), fl.Order, replay)
	default:
		fmt.Fprintf(w, "gmc: race flipped: no failure found after the race in either order (%s states; %s)\n", thousands(fl.States), boundText(fl.Bound))
	}
}

// harmfulNote is a flipped race's verdict in a result line.
func harmfulNote(e *trace.ErrorInfo) string {
	switch {
	case e == nil || e.Flip == nil:
		return ""
	case e.Harmful == nil:
		return "; harmful unknown"
	case *e.Harmful:
		s := fmt.Sprintf("; harmful: %s at %s", e.Flip.Error.Kind, fileLine(e.Flip.Error.Pos))
		if e.Flip.TraceFile != "" {
			s += " (gmc replay " + e.Flip.TraceFile + ")"
		}
		return s
	}
	return "; no failure found after the race in either order"
}

// fileLine drops the column of a file.go:line:col position.
func fileLine(pos string) string {
	if i := strings.LastIndexByte(pos, ':'); i > 0 && strings.Count(pos, ":") >= 2 {
		return pos[:i]
	}
	return pos
}
