package warn

import (
	"fmt"
	"strings"

	"github.com/gmc-go/gmc/abstract"
	"github.com/gmc-go/gmc/vm/loc"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/buildssa"
	"golang.org/x/tools/go/ssa"
)

// DoubleLock reports a mutex acquired while it may already be held by the
// same goroutine on some path (directly or in a callee): the goroutine
// blocks on itself. The target is the second acquisition.
var DoubleLock = &analysis.Analyzer{
	Name:     "doublelock",
	Doc:      "report a mutex locked again while it may still be held on some path\n\nA sync.Mutex or RWMutex write lock acquired when the same mutex (same variable, field path or argument) may be held, in the function or in a callee called with it held.",
	Requires: []*analysis.Analyzer{buildssa.Analyzer},
	Run: func(pass *analysis.Pass) (any, error) {
		report(pass, CheckDoubleLock(passModel(pass)))
		return nil, nil
	},
}

// MissingUnlock reports a return reached with a mutex still held on some
// path, in a function that releases it on others.
var MissingUnlock = &analysis.Analyzer{
	Name:     "missingunlock",
	Doc:      "report a path that returns with a mutex still locked\n\nOnly functions that also unlock the mutex (so they do not mean to return holding it) are reported; deferred unlocks count on the paths that register them.",
	Requires: []*analysis.Analyzer{buildssa.Analyzer},
	Run: func(pass *analysis.Pass) (any, error) {
		report(pass, CheckMissingUnlock(passModel(pass)))
		return nil, nil
	},
}

// CheckDoubleLock finds double acquisitions of the same mutex.
func CheckDoubleLock(m *Model) []Warning {
	var out []Warning
	seen := map[loc.Loc]bool{}
	for _, fn := range m.Funcs {
		walkHeld(fn, func(in ssa.Instruction, s lockState) {
			c, ok := in.(*ssa.Call)
			if !ok || len(s.held) == 0 {
				return
			}
			fset := fn.Prog.Fset
			if k, mu := abstract.LockOp(in); k.Acquires() {
				if h, ok := s.held[lockIdent(mu)]; ok && !(h.read && k == abstract.RLock) && !seen[loc.Of(in)] {
					seen[loc.Of(in)] = true
					out = append(out, Warning{Check: "doublelock", Pos: in.Pos(),
						Msg:     fmt.Sprintf("%s may already be held here (locked at %s): double lock", short(h.key), h.at.Position(fset)),
						Targets: []loc.Loc{loc.Of(in)}})
				}
				return
			}
			for _, g := range m.Callees(c) {
				if !m.inFuncs[g] {
					continue
				}
				for _, a := range m.acquisitions(g) {
					id := translate(a.id, g, c.Common().Args)
					if h, ok := s.held[id]; ok && !(h.read && a.read) && !seen[a.at] {
						seen[a.at] = true
						out = append(out, Warning{Check: "doublelock", Pos: in.Pos(),
							Msg: fmt.Sprintf("call locks %s at %s while it may be held (locked at %s): double lock",
								short(h.key), a.at.Position(fset), h.at.Position(fset)),
							Targets: []loc.Loc{a.at}})
					}
				}
			}
		})
	}
	return out
}

// CheckMissingUnlock finds returns reached with a mutex held.
func CheckMissingUnlock(m *Model) []Warning {
	var out []Warning
	for _, fn := range m.Funcs {
		released := map[string]bool{}
		for _, b := range fn.Blocks {
			for _, in := range b.Instrs {
				if k, mu := abstract.LockOp(in); k.Releases() {
					released[lockIdent(mu)] = true
					released[abstract.LockKey(mu)] = true
				}
			}
		}
		if len(released) == 0 {
			continue
		}
		reported := map[string]bool{}
		walkHeld(fn, func(in ssa.Instruction, s lockState) {
			if _, ok := in.(*ssa.Return); !ok {
				return
			}
			for _, h := range sortedHeld(s) {
				if reported[h.id] || s.deferred[h.id] || s.deferred[h.key] || !(released[h.id] || released[h.key]) {
					continue
				}
				reported[h.id] = true
				out = append(out, Warning{Check: "missingunlock", Pos: h.at.Pos(),
					Msg:     fmt.Sprintf("%s locked here may still be held when returning at %s", short(h.key), loc.Of(in).Position(fn.Prog.Fset)),
					Targets: []loc.Loc{loc.Of(in)}})
			}
		})
	}
	return out
}

// short drops package paths from a lock name for messages.
func short(key string) string {
	fields := strings.Fields(key)
	for i, f := range fields {
		if j := strings.LastIndexByte(f, '/'); j >= 0 {
			fields[i] = f[j+1:]
		}
	}
	return strings.Join(fields, " ")
}
