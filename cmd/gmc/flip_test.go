package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestFlipRace: gmc check flips every race it reports. A race after which
// one order of the accesses fails is harmful, with a second trace that
// replays to that failure; a race neither order of which can fail is not.
// The race stays the error either way (exit 1). A race ordered by a sleep
// is flipped too, and a harmful one's trace replays.
func TestFlipRace(t *testing.T) {
	cases := []struct {
		pkg     string
		harmful bool
		order   string // the failing order
		failure string // its message
	}{
		{"harmful", true, "as found", "nil pointer dereference"}, // check, racy write of nil, use
		{"counter", true, "flipped", "lost update"},              // racy increments, then an assertion
		{"benign", false, "", ""},                                // the same value written twice
		// ordered by a sleep: the flipped order holds the writer while the
		// sleeper's timer fires (a real run: the OS may delay the writer)
		{"sleep", true, "flipped", "not ready after the sleep"},
		{"sleeplen", true, "flipped", "not ready after the sleep"}, // len(c) a scheduling point with race detection only
		{"sleepbenign", false, "", ""},
		// a WaitGroup's Wait that starts waiting as the first operation
		// of a transition (after a breakpoint of the flip's machine)
		{"wgwrongadd", false, "", ""},
		// a WaitGroup reused while a released waiter has not run: Go's
		// Wait panics
		{"wgreuse", true, "flipped", "WaitGroup is reused before previous Wait has returned"},
	}
	for _, c := range cases {
		t.Run(c.pkg, func(t *testing.T) {
			dir := t.TempDir()
			out := filepath.Join(dir, "race.json")
			args := []string{"check", "--check", "race,deadlock,panic", "--time-limit", "20s", "--out", out, "./testdata/flip/" + c.pkg}
			stdout, stderr, code := gmc(t, append(args, "--json")...)
			if code != 1 {
				t.Fatalf("exit %d, want 1\n%s", code, stderr)
			}
			var rep struct {
				Error struct {
					Kind    string
					Harmful *bool
					Flip    struct {
						Order     string
						TraceFile string `json:"trace_file"`
						Error     *struct{ Kind, Message string }
						Bound     *struct{ Exhausted bool }
						Orders    []struct{ Order, Verdict string }
					}
				}
			}
			if err := json.Unmarshal([]byte(stdout), &rep); err != nil {
				t.Fatalf("stdout is not one JSON object: %v\n%s", err, stdout)
			}
			e := rep.Error
			if e.Kind != "race" || e.Harmful == nil || *e.Harmful != c.harmful {
				t.Fatalf("error %+v, want a race with harmful %v", e, c.harmful)
			}
			if !c.harmful {
				if e.Flip.Bound == nil || !e.Flip.Bound.Exhausted || len(e.Flip.Orders) != 2 || e.Flip.Error != nil {
					t.Errorf("flip %+v, want both orders exhausted without a failure", e.Flip)
				}
				_, stderr, _ = gmc(t, args...)
				if !strings.Contains(stderr, "no failure found after the race in either order") {
					t.Errorf("text output:\n%s", stderr)
				}
				return
			}
			if e.Flip.Order != c.order || e.Flip.Error == nil || !strings.Contains(e.Flip.Error.Message, c.failure) {
				t.Fatalf("flip %+v, want %q in the %s order", e.Flip, c.failure, c.order)
			}
			if e.Flip.TraceFile == "" {
				t.Fatalf("no trace file for the failure")
			}
			if _, err := os.Stat(e.Flip.TraceFile); err != nil {
				t.Fatal(err)
			}
			_, stderr, code = gmc(t, "replay", e.Flip.TraceFile)
			if code != 1 || !strings.Contains(stderr, "reproduced: "+e.Flip.Error.Kind) {
				t.Errorf("replay of the failure: exit %d\n%s", code, stderr)
			}
			_, stderr, _ = gmc(t, args...)
			if !strings.Contains(stderr, "harmful: "+e.Flip.Error.Kind+" at main.go:") || !strings.Contains(stderr, "gmc replay "+e.Flip.TraceFile) {
				t.Errorf("text output:\n%s", stderr)
			}
		})
	}
}
