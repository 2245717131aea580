package warn

import (
	"github.com/gmc-go/gmc/vm/loc"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/buildssa"
	"golang.org/x/tools/go/ssa"
)

// CondWait reports a sync.Cond Wait that is not in a loop re-checking its
// condition: a signal sent before the wait is lost and the goroutine blocks
// forever (lost wake-up), or it goes on with the condition false. The target
// is the Wait.
var CondWait = &analysis.Analyzer{
	Name:     "condwait",
	Doc:      "report sync.Cond.Wait calls that are not inside a loop\n\nThe condition a goroutine waits for must be re-checked after every wake-up; a Wait outside a loop can miss a Signal sent before it and block forever.",
	Requires: []*analysis.Analyzer{buildssa.Analyzer},
	Run: func(pass *analysis.Pass) (any, error) {
		report(pass, CheckCondWait(passModel(pass)))
		return nil, nil
	},
}

// CheckCondWait finds Wait calls outside loops.
func CheckCondWait(m *Model) []Warning {
	var out []Warning
	for _, fn := range m.Funcs {
		for _, b := range fn.Blocks {
			for _, in := range b.Instrs {
				c, ok := in.(*ssa.Call)
				if !ok {
					continue
				}
				if g := c.Call.StaticCallee(); g == nil || g.String() != "(*sync.Cond).Wait" || inLoop(b) {
					continue
				}
				out = append(out, Warning{Check: "condwait", Pos: c.Pos(),
					Msg:     "sync.Cond.Wait not in a loop re-checking its condition: a wake-up may be lost (the goroutine may block forever)",
					Targets: []loc.Loc{loc.Of(c)}})
			}
		}
	}
	return out
}
