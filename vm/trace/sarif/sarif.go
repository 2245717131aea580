// Package sarif writes the errors gmc found as a SARIF 2.1.0 log (the
// OASIS Static Analysis Results Interchange Format that code-scanning
// services such as GitHub's take), using github.com/owenrumney/go-sarif.
//
// The model: one run of the tool "gmc" per log; one result per error
// found (per checked entry), whose ruleId is the error kind of the JSON
// contract (panic, deadlock, leak, race, fatal, assert); one rule per kind
// that occurs. A result carries
//
//   - its message: Go's message for the error and the entry that shows it;
//   - its location: the failing operation, or else the top frame of the
//     first goroutine the error involves (the leaked or deadlocked
//     goroutine's blocking operation);
//   - one code flow with a thread flow per involved goroutine, whose
//     locations are the goroutine's stack frames from the outermost
//     (nesting level 0) to the innermost;
//   - a second code flow, the interleaving: a thread flow per goroutine
//     whose locations are its transitions in the counterexample, ordered
//     across goroutines by executionOrder (the last MaxSteps transitions);
//   - properties: the entry, the command that replays the counterexample,
//     the trace file when one was written, and the search's counters.
//
// File locations are URIs relative to the source root (uriBaseId
// "%SRCROOT%", declared in the run's originalUriBaseIds) when the file is
// under it, absolute file URIs otherwise.
package sarif

import (
	"fmt"
	"go/token"
	"io"
	"net/url"
	"path/filepath"
	"sort"
	"strings"

	gosarif "github.com/owenrumney/go-sarif/v2/sarif"

	"github.com/gmc-go/gmc/vm"
	"github.com/gmc-go/gmc/vm/loc"
)

// SrcRoot is the uriBaseId of file locations under the source root.
const SrcRoot = "%SRCROOT%"

// InformationURI is the tool's home page in the log.
const InformationURI = "https://github.com/gmc-go/gmc"

// rules describes each error kind (the ruleIds).
var rules = map[string]string{
	"panic":    "An unrecovered panic: a runtime error (nil dereference, index out of range, division by zero, send on closed channel, ...) or a call of panic.",
	"deadlock": "Every goroutine is blocked: the Go runtime's \"all goroutines are asleep - deadlock!\".",
	"leak":     "The entry returned while goroutines are blocked forever (a goroutine leak).",
	"race":     "Two conflicting accesses to the same memory not ordered by happens-before (a data race).",
	"fatal":    "A fatal runtime error, such as \"sync: unlock of unlocked mutex\" or a negative WaitGroup counter.",
	"assert":   "A failed test (t.Error, t.Fatal) or a reached target location.",
}

// Finding is one error to report.
type Finding struct {
	Entry   string // the entry that shows it ("main", "TestXxx", "Cockroach584")
	Kind    string // the error kind (the ruleId)
	Message string // Go's message
	// Loc is the failing operation (zero: use the first goroutine's top
	// frame).
	Loc loc.Loc
	// Goroutines are the goroutines the error involves, with their stacks
	// innermost frame first (as vm.Error has them).
	Goroutines []vm.GoroutineInfo
	// Replay is the command that reproduces the error; TraceFile the trace
	// it replays, if one was written.
	Replay    string
	TraceFile string
	// Steps are the transitions of the counterexample, in order (empty:
	// no interleaving in the result).
	Steps []vm.Step
	// Stats are extra counters for the result's properties (states,
	// time_s, trace_len...).
	Stats map[string]any
}

// MaxSteps bounds the transitions of the interleaving code flow: the
// last MaxSteps are kept (where the error shows).
const MaxSteps = 500

// FindingOf describes a VM error found in entry.
func FindingOf(entry string, e *vm.Error) Finding {
	return Finding{Entry: entry, Kind: string(e.Kind), Message: e.Msg, Loc: e.Loc, Goroutines: e.Goroutines}
}

// Log builds a SARIF log.
type Log struct {
	fset *token.FileSet
	root string
	rep  *gosarif.Report
	run  *gosarif.Run
}

// New starts a log of one gmc invocation: version is gmc's version ("" if
// unknown), args its command line, root the source root (the directory
// relative URIs start from), fset the file set of the checked program.
func New(fset *token.FileSet, root string, version string, args []string) (*Log, error) {
	rep, err := gosarif.New(gosarif.Version210)
	if err != nil {
		return nil, err
	}
	driver := gosarif.NewDriver("gmc").WithInformationURI(InformationURI)
	if version != "" {
		driver.WithVersion(version)
	}
	run := gosarif.NewRun(*gosarif.NewTool(driver))
	if root != "" {
		abs, err := filepath.Abs(root)
		if err != nil {
			return nil, err
		}
		root = abs
		run.WithOriginalUriBaseIds(map[string]*gosarif.ArtifactLocation{
			SrcRoot: gosarif.NewSimpleArtifactLocation(fileURI(root) + "/"),
		})
	}
	inv := run.AddInvocation(true)
	inv.WithCommanLine(strings.Join(args, " ")).WithArguments(args)
	if root != "" {
		inv.WorkingDirectory = gosarif.NewSimpleArtifactLocation(fileURI(root) + "/")
	}
	rep.AddRun(run)
	return &Log{fset: fset, root: root, rep: rep, run: run}, nil
}

// Add adds a result for f.
func (l *Log) Add(f Finding) {
	l.addRule(f.Kind)
	res := l.run.CreateResultForRule(f.Kind)
	res.WithLevel("error")
	msg := strings.SplitN(f.Message, "\n", 2)[0]
	if f.Entry != "" {
		msg += " (entry " + f.Entry + ")"
	}
	res.WithMessage(gosarif.NewTextMessage(msg))
	primary := f.Loc
	if !validPos(l.fset, primary) {
		for _, g := range f.Goroutines {
			if len(g.Stack) > 0 {
				primary = g.Stack[0].Loc
				break
			}
		}
	}
	if pl := l.physical(primary); pl != nil {
		res.AddLocation(gosarif.NewLocationWithPhysicalLocation(pl))
	}
	if cf := l.codeFlow(f.Goroutines); cf != nil {
		res.AddCodeFlow(cf)
	}
	if cf := l.interleaving(f.Steps); cf != nil {
		res.AddCodeFlow(cf)
	}
	props := gosarif.Properties{"entry": f.Entry, "message": f.Message}
	if f.Replay != "" {
		props["replay"] = f.Replay
	}
	if f.TraceFile != "" {
		props["traceFile"] = f.TraceFile
	}
	for k, v := range f.Stats {
		props[k] = v
	}
	res.Properties = props
}

// Write writes the log as JSON (compact: interleavings make logs long).
func (l *Log) Write(w io.Writer) error {
	if l.run.Results == nil {
		l.run.Results = []*gosarif.Result{} // "results": [] says the checks ran and found nothing
	}
	return l.rep.Write(w)
}

func (l *Log) addRule(kind string) {
	for _, r := range l.run.Tool.Driver.Rules {
		if r.ID == kind {
			return
		}
	}
	desc, ok := rules[kind]
	if !ok {
		desc = "An error of kind " + kind + "."
	}
	l.run.AddRule(kind).WithName(kind).
		WithShortDescription(gosarif.NewMultiformatMessageString(strings.SplitN(desc, ":", 2)[0])).
		WithFullDescription(gosarif.NewMultiformatMessageString(desc)).
		WithHelpURI(InformationURI + "#readme")
}

// codeFlow is one thread flow per goroutine: its stack, outermost first.
func (l *Log) codeFlow(gs []vm.GoroutineInfo) *gosarif.CodeFlow {
	if len(gs) == 0 {
		return nil
	}
	cf := gosarif.NewCodeFlow().WithTextMessage(fmt.Sprintf("%d goroutines involved", len(gs)))
	if len(gs) == 1 {
		cf.WithTextMessage("1 goroutine involved")
	}
	for _, g := range gs {
		state := g.Status
		if g.Wait != "" {
			state = g.Wait
		}
		name := fmt.Sprintf("goroutine %d", g.ID)
		tf := gosarif.NewThreadFlow().WithID(name).WithTextMessage(fmt.Sprintf("%s [%s]", name, state))
		tf.Locations = []*gosarif.ThreadFlowLocation{}
		for i := len(g.Stack) - 1; i >= 0; i-- {
			fr := g.Stack[i]
			lc := gosarif.NewLocation().WithMessage(gosarif.NewTextMessage(fr.Func))
			if pl := l.physical(fr.Loc); pl != nil {
				lc.WithPhysicalLocation(pl)
			}
			tfl := gosarif.NewThreadFlowLocation().WithLocation(lc).WithNestingLevel(len(g.Stack) - 1 - i)
			if i == 0 && g.Wait != "" {
				tfl.WithKinds([]string{"wait"})
			}
			tf.AddLocation(tfl)
		}
		cf.AddThreadFlow(tf)
	}
	return cf
}

// interleaving is the counterexample's schedule: a thread flow per
// goroutine whose locations are its transitions, each with its position
// in the whole schedule as executionOrder.
func (l *Log) interleaving(steps []vm.Step) *gosarif.CodeFlow {
	if len(steps) == 0 {
		return nil
	}
	first := max(0, len(steps)-MaxSteps)
	msg := fmt.Sprintf("interleaving: %d transitions", len(steps))
	if first > 0 {
		msg = fmt.Sprintf("interleaving: the last %d of %d transitions", len(steps)-first, len(steps))
	}
	cf := gosarif.NewCodeFlow().WithTextMessage(msg)
	flows := map[int]*gosarif.ThreadFlow{}
	var order []int
	for k := first; k < len(steps); k++ {
		st := steps[k]
		tf := flows[st.G]
		if tf == nil {
			tf = gosarif.NewThreadFlow().WithID(fmt.Sprintf("goroutine %d", st.G))
			tf.Locations = []*gosarif.ThreadFlowLocation{}
			flows[st.G] = tf
			order = append(order, st.G)
		}
		lc := gosarif.NewLocation().WithMessage(gosarif.NewTextMessage(fmt.Sprintf("%d: %s (goroutine %d)", k+1, st.Op, st.G)))
		if pl := l.physical(st.Loc); pl != nil {
			lc.WithPhysicalLocation(pl)
		}
		tfl := gosarif.NewThreadFlowLocation().WithLocation(lc).WithExecutionOrder(k + 1)
		switch {
		case strings.HasSuffix(st.Op, "Unlock"):
			tfl.WithKinds([]string{"release"})
		case strings.HasSuffix(st.Op, "Lock"):
			tfl.WithKinds([]string{"acquire"})
		}
		tf.AddLocation(tfl)
	}
	sort.Ints(order)
	for _, g := range order {
		cf.AddThreadFlow(flows[g])
	}
	return cf
}

func validPos(fset *token.FileSet, l loc.Loc) bool {
	if l.Fn == nil {
		return false
	}
	p := fset.Position(l.Pos())
	return p.IsValid()
}

// physical is the file, line and column of l (nil if unknown).
func (l *Log) physical(lc loc.Loc) *gosarif.PhysicalLocation {
	if !validPos(l.fset, lc) {
		return nil
	}
	p := l.fset.Position(lc.Pos())
	art := gosarif.NewArtifactLocation()
	if rel, ok := l.relative(p.Filename); ok {
		art.WithUri(rel).WithUriBaseId(SrcRoot)
	} else {
		art.WithUri(fileURI(p.Filename))
	}
	reg := gosarif.NewRegion().WithStartLine(p.Line)
	if p.Column > 0 {
		reg.WithStartColumn(p.Column)
	}
	return gosarif.NewPhysicalLocation().WithArtifactLocation(art).WithRegion(reg)
}

// relative returns file as a slash-separated path relative to the source
// root, if it is under it.
func (l *Log) relative(file string) (string, bool) {
	if l.root == "" || !filepath.IsAbs(file) {
		return "", false
	}
	rel, err := filepath.Rel(l.root, file)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", false
	}
	return (&url.URL{Path: filepath.ToSlash(rel)}).EscapedPath(), true
}

// fileURI is the file:// URI of an absolute path.
func fileURI(path string) string {
	return (&url.URL{Scheme: "file", Path: filepath.ToSlash(path)}).String()
}
