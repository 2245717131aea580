package sarif_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gmc-go/gmc/vm"
	"github.com/gmc-go/gmc/vm/load"
	"github.com/gmc-go/gmc/vm/trace"
	"github.com/gmc-go/gmc/vm/trace/sarif"
	"github.com/gmc-go/gmc/vm/trace/sarif/sariftest"
)

// wantLines reads the "// want KIND" comments of testdata/prog/main.go:
// kind → the lines a report of that kind points at.
func wantLines(t *testing.T) map[string][]int {
	t.Helper()
	fh, err := os.Open(filepath.Join("testdata", "prog", "main.go"))
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	want := map[string][]int{}
	sc := bufio.NewScanner(fh)
	for n := 1; sc.Scan(); n++ {
		if _, kind, ok := strings.Cut(sc.Text(), "// want "); ok {
			want[kind] = append(want[kind], n)
		}
	}
	return want
}

// sarifLog is the part of a SARIF log the test reads.
type sarifLog struct {
	Version string
	Runs    []struct {
		Tool struct {
			Driver struct {
				Name  string
				Rules []struct{ ID string }
			}
		}
		OriginalURIBaseIDs map[string]struct{ URI string } `json:"originalUriBaseIds"`
		Results            []struct {
			RuleID    string
			Level     string
			Message   struct{ Text string }
			Locations []struct {
				PhysicalLocation physLoc
			}
			CodeFlows []struct {
				ThreadFlows []struct {
					ID        string
					Locations []struct {
						NestingLevel   int
						ExecutionOrder int
						Location       struct {
							Message          struct{ Text string }
							PhysicalLocation physLoc
						}
					}
				}
			}
			Properties map[string]any
		}
	}
}

type physLoc struct {
	ArtifactLocation struct {
		URI       string
		URIBaseID string `json:"uriBaseId"`
	}
	Region struct{ StartLine int }
}

// TestLog: the errors of three entries (a deadlock of two goroutines, a
// panic, a leak) give a log that the SARIF 2.1.0 schema accepts, with one
// result per error, ruleId the kind, the location of the failing
// operation relative to the source root, a thread flow per goroutine
// ending at its blocking operation, the interleaving, and the replay
// command.
func TestLog(t *testing.T) {
	prog, err := load.Load(load.Config{Dir: filepath.Join("testdata", "prog")})
	if err != nil {
		t.Fatal(err)
	}
	m := vm.New(prog, vm.Options{Checks: vm.Checks{Leak: true}})
	wd, _ := os.Getwd()
	log, err := sarif.New(prog.Fset, wd, "test", []string{"gmc", "check", "./testdata/prog"})
	if err != nil {
		t.Fatal(err)
	}
	entries := map[string]string{"main": "deadlock", "Panics": "panic", "Leaks": "leak"}
	nsteps := map[string]int{}
	for _, name := range []string{"main", "Panics", "Leaks"} {
		e, err := m.FindEntry(name)
		if err != nil {
			t.Fatal(err)
		}
		var steps []vm.Step
		final, _, _ := trace.RandomRun(m, e, 1, 10000, func(s *vm.State) { steps = append(steps, s.LastStep()) })
		if final.Err() == nil || string(final.Err().Kind) != entries[name] {
			t.Fatalf("%s: got %v, want a %s", name, final.Err(), entries[name])
		}
		f := sarif.FindingOf(name, final.Err())
		f.Replay = "gmc replay " + name + ".json"
		f.Stats = map[string]any{"states": 7}
		f.Steps = steps
		nsteps[name] = len(steps)
		log.Add(f)
	}
	var buf bytes.Buffer
	if err := log.Write(&buf); err != nil {
		t.Fatal(err)
	}
	validate(t, buf.Bytes())

	var got sarifLog
	if err := json.Unmarshal(buf.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	if got.Version != "2.1.0" || len(got.Runs) != 1 || got.Runs[0].Tool.Driver.Name != "gmc" {
		t.Fatalf("log header: %+v", got)
	}
	run := got.Runs[0]
	if base := run.OriginalURIBaseIDs[sarif.SrcRoot].URI; base != "file://"+filepath.ToSlash(wd)+"/" {
		t.Errorf("source root %q", base)
	}
	if len(run.Results) != 3 || len(run.Tool.Driver.Rules) != 3 {
		t.Fatalf("%d results, %d rules; want 3 of each", len(run.Results), len(run.Tool.Driver.Rules))
	}
	want := wantLines(t)
	const file = "testdata/prog/main.go"
	for _, r := range run.Results {
		lines := want[r.RuleID]
		if len(lines) == 0 {
			t.Errorf("unexpected rule %q", r.RuleID)
			continue
		}
		if r.Level != "error" || !strings.Contains(r.Message.Text, "(entry ") {
			t.Errorf("%s: level %q message %q", r.RuleID, r.Level, r.Message.Text)
		}
		if len(r.Locations) != 1 {
			t.Errorf("%s: %d locations, want 1", r.RuleID, len(r.Locations))
			continue
		}
		pl := r.Locations[0].PhysicalLocation
		if pl.ArtifactLocation.URI != file || pl.ArtifactLocation.URIBaseID != sarif.SrcRoot || !contains(lines, pl.Region.StartLine) {
			t.Errorf("%s: location %+v, want %s at one of lines %v", r.RuleID, pl, file, lines)
		}
		if !strings.HasPrefix(fmt.Sprint(r.Properties["replay"]), "gmc replay ") || r.Properties["states"] != float64(7) {
			t.Errorf("%s: properties %v", r.RuleID, r.Properties)
		}
		// the last code flow is the interleaving: every transition once, in
		// order within each goroutine
		if len(r.CodeFlows) == 0 {
			t.Errorf("%s: no code flows", r.RuleID)
			continue
		}
		orders := map[int]bool{}
		for _, tf := range r.CodeFlows[len(r.CodeFlows)-1].ThreadFlows {
			for i, l := range tf.Locations {
				orders[l.ExecutionOrder] = true
				if i > 0 && l.ExecutionOrder <= tf.Locations[i-1].ExecutionOrder {
					t.Errorf("%s: %s: transitions out of order", r.RuleID, tf.ID)
				}
			}
		}
		entry := fmt.Sprint(r.Properties["entry"])
		if len(orders) != nsteps[entry] || !orders[1] || !orders[nsteps[entry]] {
			t.Errorf("%s: interleaving has %d distinct transitions, want 1..%d", r.RuleID, len(orders), nsteps[entry])
		}
		if r.RuleID == "panic" {
			continue
		}
		// one thread flow per involved goroutine, innermost frame at a want line
		if len(r.CodeFlows) != 2 {
			t.Errorf("%s: %d code flows", r.RuleID, len(r.CodeFlows))
			continue
		}
		tfs := r.CodeFlows[0].ThreadFlows
		if len(tfs) != len(lines) {
			t.Errorf("%s: %d thread flows, want %d", r.RuleID, len(tfs), len(lines))
		}
		for _, tf := range tfs {
			n := len(tf.Locations)
			if n == 0 || !strings.HasPrefix(tf.ID, "goroutine ") {
				t.Errorf("%s: thread flow %+v", r.RuleID, tf)
				continue
			}
			inner := tf.Locations[n-1]
			if inner.NestingLevel != n-1 || !contains(lines, inner.Location.PhysicalLocation.Region.StartLine) || !strings.HasPrefix(inner.Location.Message.Text, "main.") {
				t.Errorf("%s: %s innermost frame %+v", r.RuleID, tf.ID, inner)
			}
		}
	}
}

// TestEmptyLog: a check that found nothing still gives a valid log, with
// an empty result list.
func TestEmptyLog(t *testing.T) {
	log, err := sarif.New(nil, "", "", []string{"gmc", "check", "."})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := log.Write(&buf); err != nil {
		t.Fatal(err)
	}
	validate(t, buf.Bytes())
	if !bytes.Contains(buf.Bytes(), []byte(`"results":[]`)) {
		t.Errorf("no empty results list:\n%s", buf.String())
	}
}

// validate checks data against the SARIF 2.1.0 schema.
func validate(t *testing.T, data []byte) {
	t.Helper()
	if err := sariftest.Validate(data); err != nil {
		t.Errorf("the log %v\n%s", err, data)
	}
}

func contains(xs []int, x int) bool {
	for _, y := range xs {
		if x == y {
			return true
		}
	}
	return false
}
