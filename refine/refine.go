package refine

import (
	"errors"
	"fmt"
	"go/constant"
	"go/token"
	"go/types"
	"math/rand/v2"
	"sync"

	"golang.org/x/tools/go/ssa"

	"github.com/gmc-go/gmc/abstract"
	"github.com/gmc-go/gmc/slice"
	"github.com/gmc-go/gmc/vm/loc"
)

// ErrNoDefinition is returned when no other goroutine can define a
// variable the stalled branch reads: refinement cannot help there.
var ErrNoDefinition = errors.New("refine: no definition of a shared variable of the branch by another goroutine")

// maxDefs bounds L_v: with type-based aliasing a predicate reading a common
// type may have many candidate stores.
const maxDefs = 64

// Refiner refines the trace sets of one program and entry.
type Refiner struct {
	ssa     *ssa.Program
	entries []*ssa.Function

	mu      sync.Mutex
	prog    *slice.Program // built on first use
	reach   map[*ssa.Function]bool
	starts  map[*ssa.Function]bool // the entries and every go-started function
	goStart map[*ssa.Function]bool
	owners  map[*ssa.Function][]*ssa.Function
	defs    map[loc.Loc][]loc.Loc // L_v per branch
	systems map[loc.Loc]*defSystem
}

// defSystem is the abstract system of one definition and its traces.
type defSystem struct {
	sys    *abstract.System
	traces []abstract.Trace // the traces with the fewest calls
	err    error
}

// New returns a Refiner for the program whose entry functions are entries.
func New(prog *ssa.Program, entries []*ssa.Function) *Refiner {
	return &Refiner{ssa: prog, entries: entries}
}

// Refinement describes one refinement, for reports and tests.
type Refinement struct {
	Branch  loc.Loc // the stalled branch (l_branch)
	Def     loc.Loc // the definition added (l_v)
	Release loc.Loc // the release appended to π_v (zero: none)
	Added   int     // steps added to the trace
	At      int     // index in the trace where they were inserted
}

// Refine refines trace set ts at its trace i, stalled at step k (a branch
// step): see the package documentation. rng picks the definition and its
// trace. ts is not changed.
func (r *Refiner) Refine(ts abstract.TraceSet, i, k int, rng *rand.Rand) (abstract.TraceSet, Refinement, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if i < 0 || i >= len(ts.Traces) || k < 0 || k >= len(ts.Traces[i].Steps) {
		return ts, Refinement{}, fmt.Errorf("refine: no step %d in trace %d", k, i)
	}
	steps := ts.Traces[i].Steps
	branch := steps[k].Loc
	ref := Refinement{Branch: branch}
	r.init()
	lv := helpful(r.definitions(branch), branch, steps[k].Succ)
	if len(lv) == 0 {
		return ts, ref, ErrNoDefinition
	}
	// l_v at random; if its system has no trace, try the others in turn
	lv = othersFirst(lv, branch)
	first := rng.IntN(len(lv))
	var ds *defSystem
	for j := range lv {
		d := lv[(first+j)%len(lv)]
		if s := r.system(d); s.err == nil && len(s.traces) > 0 {
			ref.Def, ds = d, s
			break
		}
	}
	if ds == nil {
		return ts, ref, fmt.Errorf("refine: no abstract trace to a definition of the branch's variables")
	}
	pv := append([]abstract.Step(nil), ds.traces[rng.IntN(len(ds.traces))].Steps...)
	pv = after(pv, len(pv)-1)
	pre, pi := steps[:k], steps[k:]

	// same_lock (Fig. 2.6 line 6–7): append the release of π_v's acquisition
	at := len(pre)
	if j, acq := sharedLock(pre, pv); acq >= 0 {
		at = j
		if rel, ok := r.release(ds.sys, pv[acq]); ok {
			pv = appendStep(pv, abstract.Step{Loc: rel, Kind: abstract.Release, Succ: -1, Lock: pv[acq].Lock})
			pv = after(pv, len(pv)-1)
			ref.Release = rel
		}
	}
	// π_v goes just before the branch, or before π_pre's acquisition of
	// a lock π_v takes, but after the steps of π_pre that may have to run
	// before π_v's goroutine exists (those in code that can spawn it). A
	// π_v that starts in an entry's goroutine shares its start with π_pre:
	// the common steps are not repeated.
	at = max(at, r.spawnPoint(pre, pv))
	if g := pv[0].Loc.Fn; !r.goStart[g] {
		cp := 0
		for cp < len(pv) && cp < len(pre) && pv[cp] == pre[cp] {
			cp++
		}
		pv = pv[cp:]
		at = max(at, cp)
	}
	if len(pv) == 0 {
		return ts, ref, fmt.Errorf("refine: the trace already defines %s before the branch", ref.Def)
	}
	// a definition of π_pre just before the insertion point is matched
	// with its goroutine standing at it, not yet executed: π_v must come
	// after it has executed, or it overwrites π_v's definition (x++ by the
	// stalled goroutine after another goroutine's x++ loses the latter)
	if at > 0 && pre[at-1].Kind&abstract.Def != 0 {
		n := len(pre)
		pre = after(append([]abstract.Step(nil), pre...), at-1)
		if len(pre) > n {
			at++
		}
	}
	merged := make([]abstract.Step, 0, len(steps)+len(pv))
	merged = append(merged, pre[:at]...)
	merged = append(merged, pv...)
	merged = append(merged, pre[at:]...)
	merged = append(merged, pi...)
	ref.Added, ref.At = len(pv), at

	out := abstract.TraceSet{Traces: append([]abstract.Trace(nil), ts.Traces...), Calls: ts.Calls}
	calls := ts.Traces[i].Calls + callsOf(pv)
	out.Calls += calls - ts.Traces[i].Calls
	out.Traces[i] = abstract.Trace{Steps: merged, Calls: calls}
	return out, ref, nil
}

// othersFirst restricts L_v to the definitions outside the stalled
// branch's function when there are any: a definition in that function
// needs a second goroutine running it (the one at the branch is stalled
// there), which the program may never start (one locker of Wronglock(1,n)
// whose own increment cannot change what its check reads); another
// function's is run by another goroutine. The others are kept when no
// definition is outside.
func othersFirst(lv []loc.Loc, branch loc.Loc) []loc.Loc {
	var out []loc.Loc
	for _, d := range lv {
		if d.Fn != branch.Fn {
			out = append(out, d)
		}
	}
	if len(out) == 0 {
		return lv
	}
	return out
}

// after inserts after step i the instruction that follows it: a guided
// search matches a step when a goroutine stands at its location, about to
// execute it, and a definition (or a release) must have been executed
// before the steps that follow it.
func after(steps []abstract.Step, i int) []abstract.Step {
	l := steps[i].Loc
	next := loc.Loc{Fn: l.Fn, Block: l.Block, Index: l.Index + 1}
	if !next.Valid() {
		return steps
	}
	st := abstract.Step{Loc: next, Kind: steps[i].Kind &^ (abstract.Target | abstract.Entry | abstract.Start), Succ: -1, Lock: steps[i].Lock}
	if i+1 < len(steps) && steps[i+1].Loc == next {
		return steps
	}
	return append(steps[:i+1], append([]abstract.Step{st}, steps[i+1:]...)...)
}

// appendStep appends st, or merges it into the last step if that is at the
// same location (a goroutine cannot stand at one location twice in a row).
func appendStep(steps []abstract.Step, st abstract.Step) []abstract.Step {
	if n := len(steps); n > 0 && steps[n-1].Loc == st.Loc {
		steps[n-1].Kind |= st.Kind
		if st.Lock != "" {
			steps[n-1].Lock = st.Lock
		}
		return steps
	}
	return append(steps, st)
}

func callsOf(steps []abstract.Step) int {
	n := 0
	for _, s := range steps {
		if s.Kind&(abstract.CallSite|abstract.GoSite) != 0 {
			n++
		}
	}
	return n
}

// spawnPoint returns the index in pre after which π_v may start: just past
// the last step of pre in a function that may start π_v's goroutine (it, or
// a function it calls, has a go statement starting π_v's first function),
// or 0.
func (r *Refiner) spawnPoint(pre, pv []abstract.Step) int {
	g := pv[0].Loc.Fn
	if !r.goStart[g] {
		return 0
	}
	may := map[*ssa.Function]bool{}
	var work []*ssa.Function
	for _, s := range r.prog.Callers(g) {
		if s.Kind == slice.Go && !may[s.Loc.Fn] {
			may[s.Loc.Fn] = true
			work = append(work, s.Loc.Fn)
		}
	}
	for len(work) > 0 {
		f := work[len(work)-1]
		work = work[:len(work)-1]
		for _, s := range r.prog.Callers(f) {
			if s.Kind != slice.Go && !may[s.Loc.Fn] {
				may[s.Loc.Fn] = true
				work = append(work, s.Loc.Fn)
			}
		}
	}
	at := 0
	for i, s := range pre {
		if may[s.Loc.Fn] {
			at = i + 1
		}
	}
	return at
}

// sharedLock finds the first acquisition in pre of a lock that pv also
// acquires: its index in pre and the index of pv's acquisition (-1, -1 if
// none).
func sharedLock(pre, pv []abstract.Step) (int, int) {
	for j, a := range pre {
		if a.Kind&abstract.Acquire == 0 || a.Lock == "" {
			continue
		}
		for b, s := range pv {
			if s.Kind&abstract.Acquire != 0 && s.Lock == a.Lock {
				return j, b
			}
		}
	}
	return -1, -1
}

// init builds the slices and the goroutine structure on first use.
func (r *Refiner) init() {
	if r.prog != nil {
		return
	}
	r.prog = slice.New(r.ssa)
	r.reach = r.prog.ReachableFrom(r.entries)
	r.starts, r.goStart = map[*ssa.Function]bool{}, map[*ssa.Function]bool{}
	for _, e := range r.entries {
		r.starts[e] = true
	}
	for _, g := range r.prog.GoStarts(r.reach) {
		r.starts[g], r.goStart[g] = true, true
	}
	r.owners = map[*ssa.Function][]*ssa.Function{}
	r.defs = map[loc.Loc][]loc.Loc{}
	r.systems = map[loc.Loc]*defSystem{}
}

// ownersOf returns the goroutine starts that reach fn through calls (not go
// statements): the goroutines that can execute fn's code.
func (r *Refiner) ownersOf(fn *ssa.Function) []*ssa.Function {
	if o, ok := r.owners[fn]; ok {
		return o
	}
	seen := map[*ssa.Function]bool{fn: true}
	work := []*ssa.Function{fn}
	var out []*ssa.Function
	for len(work) > 0 {
		f := work[len(work)-1]
		work = work[:len(work)-1]
		if r.starts[f] {
			out = append(out, f)
		}
		for _, s := range r.prog.Callers(f) {
			if s.Kind != slice.Go && !seen[s.Loc.Fn] {
				seen[s.Loc.Fn] = true
				work = append(work, s.Loc.Fn)
			}
		}
	}
	r.owners[fn] = out
	return out
}

// otherGoroutine reports whether a goroutine other than the one executing
// branchFn can execute defFn.
func (r *Refiner) otherGoroutine(branchFn, defFn *ssa.Function) bool {
	mine := map[*ssa.Function]bool{}
	for _, s := range r.ownersOf(branchFn) {
		mine[s] = true
	}
	for _, s := range r.ownersOf(defFn) {
		if !mine[s] || r.goStart[s] {
			return true
		}
	}
	return false
}

// definitions returns L_v for a branch (Fig. 2.6 line 2), in a
// deterministic order.
func (r *Refiner) definitions(branch loc.Loc) []loc.Loc {
	if d, ok := r.defs[branch]; ok {
		return d
	}
	var out []loc.Loc
	ifi, ok := branch.Instr().(*ssa.If)
	if ok {
		type classRoot struct {
			slice.Class
			root *ssa.Global
		}
		seenClass := map[classRoot]bool{}
		seen := map[loc.Loc]bool{}
		for _, src := range r.prog.ValueSources(ifi.Cond) {
			root := globalRoot(src.Instr())
			for _, a := range slice.Accesses(src.Instr()) {
				if a.Write || a.Class.Kind == slice.Local || seenClass[classRoot{a.Class, root}] {
					continue
				}
				seenClass[classRoot{a.Class, root}] = true
				for _, st := range r.prog.MayDefine(a.Class) {
					if seen[st] || !r.reach[st.Fn] || isAlloc(st) || !r.otherGoroutine(branch.Fn, st.Fn) {
						continue
					}
					if g := globalRoot(st.Instr()); root != nil && g != nil && g != root {
						continue // a field of another package-level variable
					}
					seen[st] = true
					out = append(out, st)
				}
			}
		}
	}
	slice.SortLocs(out)
	if len(out) > maxDefs {
		out = out[:maxDefs]
	}
	r.defs[branch] = out
	return out
}

// globalRoot returns the package-level variable a load or store reaches
// through field and array-element addresses (d1.v, g.a[2].f), or nil:
// type-based classes merge the fields of all values of a type, and two
// distinct variables never alias.
func globalRoot(in ssa.Instruction) *ssa.Global {
	var addr ssa.Value
	switch in := in.(type) {
	case *ssa.UnOp:
		if in.Op != token.MUL {
			return nil
		}
		addr = in.X
	case *ssa.Store:
		addr = in.Addr
	default:
		return nil
	}
	for {
		switch a := addr.(type) {
		case *ssa.FieldAddr:
			addr = a.X
		case *ssa.IndexAddr:
			if _, isArray := a.X.Type().Underlying().(*types.Pointer); !isArray {
				return nil // a slice element: the backing array may be shared
			}
			addr = a.X
		case *ssa.Global:
			return a
		default:
			return nil
		}
	}
}

// helpful drops from L_v the definitions that store a constant which
// makes the branch take the side the trace does not want, when the
// branch compares a loaded variable with a constant: such a definition
// made before the branch cannot help it go the desired way (succ 0 is the
// true side; a negative succ wants no side).
func helpful(defs []loc.Loc, branch loc.Loc, succ int) []loc.Loc {
	ifi, ok := branch.Instr().(*ssa.If)
	if !ok || succ < 0 {
		return defs
	}
	cmp, ok := ifi.Cond.(*ssa.BinOp)
	if !ok {
		return defs
	}
	switch cmp.Op {
	case token.EQL, token.NEQ, token.LSS, token.LEQ, token.GTR, token.GEQ:
	default:
		return defs
	}
	op, x, c := cmp.Op, cmp.X, cmp.Y
	if _, isConst := x.(*ssa.Const); isConst {
		op, x, c = swapCompare(op), cmp.Y, cmp.X
	}
	bound, ok := c.(*ssa.Const)
	load, isLoad := x.(*ssa.UnOp)
	if !ok || !isLoad || load.Op != token.MUL || bound.Value == nil {
		return defs
	}
	class := slice.AddrClass(load.X)
	want := succ == 0
	var out []loc.Loc
	for _, d := range defs {
		st, ok := d.Instr().(*ssa.Store)
		if ok && slice.AddrClass(st.Addr) == class {
			if v, ok := st.Val.(*ssa.Const); ok && v.Value != nil && sameKind(v.Value, bound.Value) {
				if constant.Compare(v.Value, op, bound.Value) != want {
					continue
				}
			}
		}
		out = append(out, d)
	}
	return out
}

// swapCompare is the comparison with its operands swapped.
func swapCompare(op token.Token) token.Token {
	switch op {
	case token.LSS:
		return token.GTR
	case token.GTR:
		return token.LSS
	case token.LEQ:
		return token.GEQ
	case token.GEQ:
		return token.LEQ
	}
	return op
}

// sameKind reports whether two constants can be compared.
func sameKind(a, b constant.Value) bool {
	num := func(k constant.Kind) bool { return k == constant.Int || k == constant.Float }
	return a.Kind() == b.Kind() || (num(a.Kind()) && num(b.Kind()))
}

// isAlloc reports whether a definition initializes a fresh object: the
// allocation itself (which zeroes it) or a store into a field or element
// of an object allocated in the same function (a composite literal, a
// constructor). No other goroutine can see the object yet, so such a
// definition never redefines what a stalled branch read.
func isAlloc(l loc.Loc) bool {
	switch in := l.Instr().(type) {
	case *ssa.Alloc:
		return true
	case *ssa.Store:
		addr := in.Addr
		for {
			switch a := addr.(type) {
			case *ssa.FieldAddr:
				addr = a.X
				continue
			case *ssa.IndexAddr:
				addr = a.X
				continue
			case *ssa.Alloc:
				return a.Parent() == l.Fn
			}
			return false
		}
	}
	return false
}

// system returns the abstract system with target def and its traces with
// the fewest calls (π_v candidates, Fig. 2.6 lines 3–4).
func (r *Refiner) system(def loc.Loc) *defSystem {
	if s, ok := r.systems[def]; ok {
		return s
	}
	s := &defSystem{}
	s.sys, s.err = abstract.Build(r.prog, abstract.Config{Targets: []loc.Loc{def}, Entries: r.entries})
	if s.err == nil {
		ts := s.sys.Traces(0, abstract.Limits{PerTarget: 4})
		for _, t := range ts {
			if t.Calls == ts[0].Calls {
				s.traces = append(s.traces, t)
			}
		}
	}
	r.systems[def] = s
	return s
}

// release returns the location where the lock of an acquisition step of
// sys is released (releaseLock of Fig. 2.6 line 7): the first matching
// release; for a deferred one, the RunDefers of its function, where the
// deferred call runs.
func (r *Refiner) release(sys *abstract.System, acq abstract.Step) (loc.Loc, bool) {
	n := sys.Nodes[acq.Loc]
	if n == nil {
		return loc.Loc{}, false
	}
	for _, rel := range n.Releases {
		rn := sys.Nodes[rel]
		if rn == nil || !rn.Deferred {
			return rel, true
		}
	}
	for _, rel := range n.Releases {
		for _, b := range rel.Fn.Blocks {
			for j, in := range b.Instrs {
				if _, ok := in.(*ssa.RunDefers); ok {
					return loc.Loc{Fn: rel.Fn, Block: b.Index, Index: j}, true
				}
			}
		}
	}
	return loc.Loc{}, false
}
