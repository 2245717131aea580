package warn

import (
	"fmt"
	"sort"
	"strings"

	"github.com/gmc-go/gmc/abstract"
	"github.com/gmc-go/gmc/slice"
	"github.com/gmc-go/gmc/vm/loc"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/buildssa"
	"golang.org/x/tools/go/ssa"
)

// Lockset reports unprotected shared accesses in the manner of Eraser: a
// global or struct field that is accessed under a lock somewhere, and
// written and accessed elsewhere by code that may run in another goroutine
// with no lock in common. The targets are the two accesses.
var Lockset = &analysis.Analyzer{
	Name:     "lockset",
	Doc:      "report shared variables accessed with inconsistent locking (possible data races)\n\nA global or field accessed under a mutex somewhere, and accessed by two goroutines with no common mutex held, at least one access a write.",
	Requires: []*analysis.Analyzer{buildssa.Analyzer},
	Run: func(pass *analysis.Pass) (any, error) {
		report(pass, CheckLockset(pass.ResultOf[buildssa.Analyzer].(*buildssa.SSA).Pkg.Prog, passModel(pass)))
		return nil, nil
	},
}

type access struct {
	slice.Access
	locks   map[string]bool
	threads []*ssa.Function // the goroutine start functions (nil = main) that may run it
}

// CheckLockset finds inconsistently protected shared accesses.
func CheckLockset(_ *ssa.Program, m *Model) []Warning {
	multi := m.goStarts()
	threads := m.threads(multi)
	entry := m.entryLocksets(multi)
	byClass := map[slice.Class][]access{}
	for _, fn := range m.Funcs {
		mustHeld(fn, entry[fn], func(in ssa.Instruction, held map[string]bool) {
			for _, a := range slice.Accesses(in) {
				if !shared(a, in) {
					continue
				}
				byClass[a.Class] = append(byClass[a.Class], access{a, held, threads[fn]})
			}
		})
	}
	classes := make([]slice.Class, 0, len(byClass))
	for c := range byClass {
		classes = append(classes, c)
	}
	sort.Slice(classes, func(i, j int) bool { return classes[i].String() < classes[j].String() })
	var out []Warning
	for _, c := range classes {
		as := byClass[c]
		var protected *access
		for i := range as {
			if len(as[i].locks) > 0 {
				protected = &as[i]
				break
			}
		}
		if protected == nil {
			continue
		}
	pairs:
		for i := range as {
			for j := range as {
				a, b := as[i], as[j]
				if len(a.locks) > 0 || !(a.Write || b.Write) || common(a.locks, b.locks) || !concurrent(a.threads, b.threads, multi) || (i == j && !a.Write) {
					continue
				}
				fset := a.Loc.Fn.Prog.Fset
				out = append(out, Warning{Check: "lockset", Pos: a.Loc.Pos(),
					Msg: fmt.Sprintf("%s is accessed here without a lock and at %s by another goroutine (locked elsewhere, e.g. at %s): possible data race",
						short(c.String()), b.Loc.Position(fset), protected.Loc.Position(fset)),
					Targets: []loc.Loc{a.Loc, b.Loc}})
				break pairs
			}
		}
	}
	return out
}

// shared keeps accesses to globals and fields of non-synchronization types,
// except writes initializing an object allocated in the same function.
func shared(a slice.Access, in ssa.Instruction) bool {
	if a.Class.Kind != slice.Global && a.Class.Kind != slice.Field {
		return false
	}
	t := a.Class.Type
	if strings.HasPrefix(t, "sync.") || strings.HasPrefix(t, "sync/atomic.") || strings.HasPrefix(t, "chan ") {
		return false
	}
	var addr ssa.Value
	switch in := in.(type) {
	case *ssa.Store:
		addr = in.Addr
	case *ssa.UnOp:
		addr = in.X
	}
	if fa, ok := addr.(*ssa.FieldAddr); ok {
		if _, fresh := fa.X.(*ssa.Alloc); fresh {
			return false
		}
	}
	return true
}

func common(a, b map[string]bool) bool {
	for k := range a {
		if b[k] {
			return true
		}
	}
	return false
}

// concurrent reports whether code run by the thread sets a and b may run in
// two goroutines at once.
func concurrent(a, b []*ssa.Function, multi map[*ssa.Function]bool) bool {
	for _, x := range a {
		for _, y := range b {
			if x != y || (x != nil && multi[x]) {
				return true
			}
		}
	}
	return false
}

// threads maps each function to the goroutines that may run it: the go
// statement targets reaching it, and nil for the main goroutine (functions
// reachable from functions nothing in the model calls).
func (m *Model) threads(multi map[*ssa.Function]bool) map[*ssa.Function][]*ssa.Function {
	out := map[*ssa.Function][]*ssa.Function{}
	// the main goroutine's functions in one walk from every root (a walk
	// per root was quadratic: maypok86/otter/v2's tests, 20 s of CPU)
	var roots []*ssa.Function
	for _, fn := range m.Funcs {
		if len(m.callers[fn]) == 0 && fn.Parent() == nil {
			roots = append(roots, fn)
		}
	}
	if len(roots) > 0 {
		for fn := range m.reach(roots...) {
			out[fn] = append(out[fn], nil)
		}
	}
	starts := make([]*ssa.Function, 0, len(multi))
	for g := range multi {
		starts = append(starts, g)
	}
	sort.Slice(starts, func(i, j int) bool { return slice.FuncLess(starts[i], starts[j]) })
	for _, g := range starts {
		for fn := range m.reach(g) {
			out[fn] = append(out[fn], g)
		}
	}
	return out
}

// entryLocksets computes, for functions only ever called (not started by
// go), the locks held at every call site; three rounds reach callees of
// callees.
func (m *Model) entryLocksets(multi map[*ssa.Function]bool) map[*ssa.Function]map[string]bool {
	entry := map[*ssa.Function]map[string]bool{}
	for round := 0; round < 3; round++ {
		atSite := map[ssa.Instruction]map[string]bool{}
		for _, fn := range m.Funcs {
			mustHeld(fn, entry[fn], func(in ssa.Instruction, held map[string]bool) {
				if _, ok := in.(*ssa.Call); ok {
					atSite[in] = held
				}
			})
		}
		next := map[*ssa.Function]map[string]bool{}
		for _, fn := range m.Funcs {
			if _, started := multi[fn]; started || len(m.callers[fn]) == 0 {
				continue
			}
			var set map[string]bool
			for _, c := range m.callers[fn] {
				h, ok := atSite[c]
				if !ok {
					set = nil
					break
				}
				if set == nil {
					set = map[string]bool{}
					for k := range h {
						set[k] = true
					}
				} else {
					for k := range set {
						if !h[k] {
							delete(set, k)
						}
					}
				}
			}
			if len(set) > 0 {
				next[fn] = set
			}
		}
		entry = next
	}
	return entry
}

// mustHeld runs the must-held lock analysis (intersection over paths, by
// may-alias lock name) and calls visit with the set before each instruction.
func mustHeld(fn *ssa.Function, entry map[string]bool, visit func(ssa.Instruction, map[string]bool)) {
	n := len(fn.Blocks)
	in := make([]map[string]bool, n) // nil = not yet reached (top)
	in[0] = copySet(entry)
	apply := func(ins ssa.Instruction, s map[string]bool) {
		k, mu := abstract.LockOp(ins)
		if _, ok := ins.(*ssa.Call); !ok || k == abstract.NotLock {
			return
		}
		if k.Acquires() {
			s[abstract.LockKey(mu)] = true
		} else {
			delete(s, abstract.LockKey(mu))
		}
	}
	for changed := true; changed; {
		changed = false
		for _, b := range fn.Blocks {
			if in[b.Index] == nil {
				continue
			}
			s := copySet(in[b.Index])
			for _, ins := range b.Instrs {
				apply(ins, s)
			}
			for _, succ := range b.Succs {
				if in[succ.Index] == nil {
					in[succ.Index] = copySet(s)
					changed = true
					continue
				}
				for k := range in[succ.Index] {
					if !s[k] {
						delete(in[succ.Index], k)
						changed = true
					}
				}
			}
		}
	}
	for _, b := range fn.Blocks {
		if in[b.Index] == nil {
			continue
		}
		s := copySet(in[b.Index])
		for _, ins := range b.Instrs {
			visit(ins, copySet(s))
			apply(ins, s)
		}
	}
}

func copySet(s map[string]bool) map[string]bool {
	out := make(map[string]bool, len(s))
	for k := range s {
		out[k] = true
	}
	return out
}
