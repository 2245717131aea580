package sarif

import (
	"crypto/sha1"
	"fmt"
	"strings"

	gosarif "github.com/owenrumney/go-sarif/v2/sarif"

	"github.com/gmc-go/gmc/vm/loc"
)

// WarningResult is a static warning with gmc confirm's verdict on it. Its
// result has the warning's check as ruleId, its message and location, and
// properties "verdict" (confirmed, infeasible, unreached, unknown),
// "source" (the tool that warned) and the verdict's details; a confirmed
// warning is level "error" with the code flows of its counterexample (as
// Add writes them), an infeasible one carries an external suppression
// whose justification states the bound and the entries, the others are
// level "note".
type WarningResult struct {
	Source  string // "gmc", "vet", a SARIF log's tool
	Check   string
	Message string
	Loc     loc.Loc
	Verdict string
	// Justification explains the verdict (the bound and entries of an
	// infeasible warning; the error of a confirmed one).
	Justification string
	// Error is the counterexample of a confirmed warning (its Kind, the
	// goroutines and steps for the code flows).
	Error *Finding
	// Props are extra properties (entries, bound, states).
	Props map[string]any
}

// AddWarning adds a result for a warning's verdict.
func (l *Log) AddWarning(w WarningResult) {
	l.addCheckRule(w.Source, w.Check)
	res := l.run.CreateResultForRule(w.Check)
	level := "note"
	if w.Verdict == "confirmed" {
		level = "error"
	}
	res.WithLevel(level)
	res.WithMessage(gosarif.NewTextMessage(w.Message + " [" + w.Verdict + "]"))
	if pl := l.physical(w.Loc); pl != nil {
		res.AddLocation(gosarif.NewLocationWithPhysicalLocation(pl))
	}
	props := gosarif.Properties{"verdict": w.Verdict, "source": w.Source}
	if w.Justification != "" {
		props["justification"] = w.Justification
	}
	for k, v := range w.Props {
		props[k] = v
	}
	if e := w.Error; e != nil {
		props["errorKind"] = e.Kind
		props["errorMessage"] = e.Message
		props["entry"] = e.Entry
		if e.Replay != "" {
			props["replay"] = e.Replay
		}
		if e.TraceFile != "" {
			props["traceFile"] = e.TraceFile
		}
		if cf := l.codeFlow(e.Goroutines); cf != nil {
			res.AddCodeFlow(cf)
		}
		if cf := l.interleaving(e.Steps); cf != nil {
			res.AddCodeFlow(cf)
		}
	}
	if w.Verdict == "infeasible" {
		// go-sarif writes a suppression's unset location and guid as null,
		// which the schema refuses: both are set (the guid derived from the
		// result, so that logs are deterministic)
		sup := gosarif.NewSuppression("external").WithStatus("accepted").WithJustifcation(w.Justification).
			WithGuid(guidOf(w.Check, w.Message, l.fset.Position(w.Loc.Pos()).String()))
		if pl := l.physical(w.Loc); pl != nil {
			sup.WithLocation(gosarif.NewLocationWithPhysicalLocation(pl))
		} else {
			sup.WithLocation(gosarif.NewLocation())
		}
		res.AddSuppression(sup)
	}
	res.Properties = props
}

// guidOf is a name-based GUID (RFC 4122 version 5 layout over SHA-1) of
// the given strings.
func guidOf(parts ...string) string {
	h := sha1.Sum([]byte(strings.Join(parts, "\x00")))
	h[6] = h[6]&0x0f | 0x50
	h[8] = h[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", h[0:4], h[4:6], h[6:8], h[8:10], h[10:16])
}

// addCheckRule declares the rule of an analyzer's check once.
func (l *Log) addCheckRule(source, check string) {
	for _, r := range l.run.Tool.Driver.Rules {
		if r.ID == check {
			return
		}
	}
	desc := "A warning of " + source + "'s " + check + " check, with gmc confirm's verdict."
	l.run.AddRule(check).WithName(check).
		WithShortDescription(gosarif.NewMultiformatMessageString(source + " " + check)).
		WithFullDescription(gosarif.NewMultiformatMessageString(desc)).
		WithHelpURI(InformationURI + "#readme")
}
