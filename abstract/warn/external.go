package warn

import (
	"fmt"
	"go/token"
	"net/url"
	"os"
	"path/filepath"
	"sort"
	"strings"

	gosarif "github.com/owenrumney/go-sarif/v2/sarif"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/analysis/passes/atomic"
	"golang.org/x/tools/go/analysis/passes/copylock"
	"golang.org/x/tools/go/analysis/passes/lostcancel"
	"golang.org/x/tools/go/analysis/passes/testinggoroutine"
	"golang.org/x/tools/go/analysis/passes/waitgroup"
	"honnef.co/go/tools/staticcheck"

	"github.com/gmc-go/gmc/vm/load"
	"github.com/gmc-go/gmc/vm/loc"
)

// This file holds the warnings of other tools: go vet's analyzers run
// in-process, and the results of a SARIF 2.1.0 log. Each becomes a Warning
// whose target is the first instruction on its line (Resolve).

// VetAnalyzers are go vet's analyzers about concurrency and the misuse of
// synchronization: non-atomic updates through sync/atomic, locks copied by
// value, lost context cancel functions, t.Fatal from a goroutine, and
// WaitGroup.Add inside the goroutine it waits for.
var VetAnalyzers = []*analysis.Analyzer{
	atomic.Analyzer, copylock.Analyzer, lostcancel.Analyzer, testinggoroutine.Analyzer, waitgroup.Analyzer,
}

// StaticcheckChecks are staticcheck's checks (honnef.co/go/tools) about
// concurrency: time.Tick leaking its ticker (SA1015), WaitGroup.Add inside
// the goroutine (SA2000), an empty critical section (SA2001), t.FailNow
// from a goroutine (SA2002), and a deferred Lock right after a Lock
// (SA2003).
var StaticcheckChecks = []string{"SA1015", "SA2000", "SA2001", "SA2002", "SA2003"}

// StaticcheckAnalyzers returns the analyzers of StaticcheckChecks.
func StaticcheckAnalyzers() []*analysis.Analyzer {
	var out []*analysis.Analyzer
	for _, a := range staticcheck.Analyzers {
		for _, c := range StaticcheckChecks {
			if a.Analyzer.Name == c {
				out = append(out, a.Analyzer)
			}
		}
	}
	return out
}

// Resolve finds the target of a position: the first instruction on its
// line (as --target file.go:LINE does). It is supplied by the caller
// (abstract.ParseTarget) so that this package need not import abstract.
type Resolve func(spec string) (loc.Loc, error)

// Unresolved is a finding whose line holds no instruction gmc can target
// (a declaration, a comment), or whose file is not in the program.
type Unresolved struct {
	Source, Check, Pos, Msg, Why string
}

// Vet runs analyzers over the root packages of p (go/analysis/checker, on
// the packages gmc loaded) and returns their diagnostics as warnings,
// sorted by position, and those it cannot target; source names the tool
// ("vet", "staticcheck") in the latter.
func Vet(p *load.Program, analyzers []*analysis.Analyzer, source string, resolve Resolve) (ws []Warning, bad []Unresolved, err error) {
	defer func() {
		if r := recover(); r != nil { // a third-party analyzer's bug is not gmc's crash
			ws, bad, err = nil, nil, fmt.Errorf("an analyzer panicked: %v", r)
		}
	}()
	g, err := checker.Analyze(analyzers, p.Pkgs, &checker.Options{Sequential: true})
	if err != nil {
		return nil, nil, err
	}
	var out []Warning
	seen := map[string]bool{}
	for _, act := range g.Roots {
		for _, d := range act.Diagnostics {
			pos := p.Fset.Position(d.Pos)
			key := fmt.Sprintf("%s %s:%d %s", act.Analyzer.Name, pos.Filename, pos.Line, d.Message)
			if seen[key] { // a package and its test variant share files
				continue
			}
			seen[key] = true
			l, err := resolve(fmt.Sprintf("%s:%d", pos.Filename, pos.Line))
			if err != nil {
				bad = append(bad, Unresolved{source, act.Analyzer.Name, shortPos(p.Fset, pos), d.Message, err.Error()})
				continue
			}
			out = append(out, Warning{Check: act.Analyzer.Name, Pos: d.Pos, Msg: d.Message, Targets: []loc.Loc{l}})
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Pos < out[j].Pos })
	return out, bad, nil
}

// SARIFResult is one result of a SARIF log, resolved to the program.
type SARIFResult struct {
	Tool    string // the run's tool (driver) name
	Warning Warning
}

// ReadSARIF reads the results of a SARIF 2.1.0 log: each result's first
// physical location (an artifact URI, absolute, relative to a uriBaseId of
// the run or to the log's directory, and a start line) becomes a Warning
// of check ruleId. Results without a location are returned as unresolved.
func ReadSARIF(path string, fset *token.FileSet, resolve Resolve) ([]SARIFResult, []Unresolved, error) {
	rep, err := gosarif.Open(path)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: not a SARIF 2.1.0 log: %v", path, err)
	}
	var out []SARIFResult
	var bad []Unresolved
	for _, run := range rep.Runs {
		tool := run.Tool.Driver.Name
		bases := map[string]string{}
		for id, al := range run.OriginalUriBaseIDs {
			if al != nil && al.URI != nil {
				bases[id] = *al.URI
			}
		}
		for _, r := range run.Results {
			rule := ""
			if r.RuleID != nil {
				rule = *r.RuleID
			}
			msg := ""
			if r.Message.Text != nil {
				msg = *r.Message.Text
			}
			file, line := "", 0
			for _, l := range r.Locations {
				if pl := l.PhysicalLocation; pl != nil && pl.ArtifactLocation != nil && pl.ArtifactLocation.URI != nil && pl.Region != nil && pl.Region.StartLine != nil {
					file = sarifFile(*pl.ArtifactLocation.URI, pl.ArtifactLocation.URIBaseId, bases, filepath.Dir(path))
					line = *pl.Region.StartLine
					break
				}
			}
			if file == "" {
				bad = append(bad, Unresolved{tool, rule, "?", msg, "the result has no file location"})
				continue
			}
			spec := fmt.Sprintf("%s:%d", file, line)
			l, err := resolve(spec)
			if err != nil {
				bad = append(bad, Unresolved{tool, rule, fmt.Sprintf("%s:%d", filepath.Base(file), line), msg, err.Error()})
				continue
			}
			out = append(out, SARIFResult{Tool: tool, Warning: Warning{Check: rule, Pos: l.Pos(), Msg: msg, Targets: []loc.Loc{l}}})
		}
	}
	return out, bad, nil
}

// sarifFile turns an artifact URI into a file name.
func sarifFile(uri string, baseID *string, bases map[string]string, logDir string) string {
	if baseID != nil {
		if b, ok := bases[*baseID]; ok && !strings.Contains(uri, "://") {
			uri = strings.TrimSuffix(b, "/") + "/" + uri
		}
	}
	if u, err := url.Parse(uri); err == nil && u.Scheme == "file" {
		return u.Path
	}
	if u, err := url.PathUnescape(uri); err == nil {
		uri = u
	}
	if !filepath.IsAbs(uri) {
		if _, err := os.Stat(uri); err != nil {
			if _, err := os.Stat(filepath.Join(logDir, uri)); err == nil {
				return filepath.Join(logDir, uri)
			}
		}
	}
	return uri
}

func shortPos(fset *token.FileSet, p token.Position) string {
	return fmt.Sprintf("%s:%d:%d", loc.ShortName(fset, p.Filename), p.Line, p.Column)
}
