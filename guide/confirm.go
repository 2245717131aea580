package guide

import (
	"context"
	"fmt"
	"go/token"
	"strings"
	"time"

	"github.com/gmc-go/gmc/heuristics"
	"github.com/gmc-go/gmc/slice"
	"github.com/gmc-go/gmc/vm"
	"github.com/gmc-go/gmc/vm/load"
	"github.com/gmc-go/gmc/vm/loc"
	"golang.org/x/tools/go/ssa"
	"golang.org/x/tools/go/ssa/ssautil"
)

// This file holds the per-warning check (gmc confirm): each static warning
// becomes the target group of a check of every entry that can reach it,
// and gets a verdict of its own.

// Warning is a static finding to confirm or dismiss.
type Warning struct {
	Source string // "gmc", "vet", or the tool of a SARIF log
	Check  string // the analyzer or rule
	Pos    string // where the finding is reported, file:line:col
	Msg    string
	// Targets are the locations an execution must reach to show the
	// warning, each by a distinct goroutine.
	Targets []loc.Loc
	// Show says what shows the warning real: an error of one of these
	// kinds whose goroutines stand at every target line (a lock-order
	// cycle: the deadlocked acquisitions; a lockset warning: the two racing
	// accesses). Empty: reaching a target is what the warning predicts (a
	// misuse); the targets are then unreachable locations of the run
	// (vm.Options.Unreachable).
	Show []vm.Kind
	// AnyLock relaxes the location rule for a missing unlock, whose target
	// is the return that keeps the lock: any goroutine blocked on a lock
	// shows it.
	AnyLock bool
}

// Warning verdicts (DESIGN: gmc confirm).
const (
	Confirmed  = "confirmed"  // an execution shows it; Result holds the counterexample
	Infeasible = "infeasible" // no execution of any entry that can reach its code shows it, within Bound
	Unreached  = "unreached"  // no entry's call graph reaches its code
	Undecided  = "unknown"    // neither, within the time limit
)

// ConfirmConfig configures the checks of gmc confirm.
type ConfirmConfig struct {
	// Options returns the VM options of an entry (its checks, arguments).
	Options func(vm.Entry) vm.Options
	// Entries are the candidate entries (tests, fuzz targets, main).
	Entries []vm.Entry
	// TimeLimit is each warning's budget, shared by the entries that can
	// reach it.
	TimeLimit time.Duration
	// EntryTimeLimit, when positive, is instead the budget of each entry
	// that can reach a warning (a module's core code is reached by most of
	// its tests: a shared budget leaves each a second).
	EntryTimeLimit time.Duration
	Seed           uint64
	// Progress, when set, is told which warning and entry are checked.
	Progress func(w *Warning, e vm.Entry)
	// Reduce applies the warning-specific reduction (reduce.go): accesses
	// to memory irrelevant to the warning are not scheduling points.
	Reduce bool
	// Payload applies the payload abstraction (payload.go,
	// vm/payload.go): states that differ only in integers nothing reads
	// are one state.
	Payload bool
}

// WarningVerdict is the outcome for one warning.
type WarningVerdict struct {
	Warning *Warning
	Verdict string
	// Entries are the entries whose call graph reaches the warning's code.
	Entries []vm.Entry
	// Entry is the entry of the counterexample (confirmed) .
	Entry vm.Entry
	// Result is the check of Entry (confirmed: its Best is the
	// counterexample).
	Result *CheckResult
	// Exhausted and Preemptions bound an infeasible verdict: every
	// reaching entry's state space was exhausted, or every schedule with
	// at most Preemptions preemptions of every reaching entry was explored.
	Exhausted   bool
	Preemptions int
	States      int
	Time        time.Duration
	Note        string // why unknown (another error first, a feature not modelled)
	// Hidden is the number of memory-access instructions of the code
	// under test the reduction made invisible, the fewest over the entries
	// (ConfirmConfig.Reduce; 0 without it).
	Hidden int
	// Abstracted is the number of payload sources of the searches that
	// decided the verdict, summed over the entries, and Dropped the
	// number of candidate sources dropped because an execution used their
	// value (ConfirmConfig.Payload).
	Abstracted, Dropped int
}

// Confirm checks each warning: the entries that can reach its code run
// the guided search toward its targets together with the bounded
// exhaustive search (CheckConfig.Bounded), each entry with an equal share
// of the warning's time. The first execution that shows the warning
// confirms it; a completed bounded search of every reaching entry without
// error makes it infeasible within the weakest entry's bound.
func Confirm(ctx context.Context, prog *load.Program, ws []*Warning, cfg ConfirmConfig) []WarningVerdict {
	sp := slice.New(prog.SSA)
	twins := entryTwins(prog, cfg.Entries)
	// payload sources whose value an execution used: not tried again (on
	// another entry or warning), as each try costs a voided search
	used := map[ssa.Instruction]bool{}
	out := make([]WarningVerdict, 0, len(ws))
	for _, w := range ws {
		for i, t := range w.Targets {
			w.Targets[i] = twins(t)
		}
		out = append(out, confirmOne(ctx, prog, sp, w, cfg, used))
	}
	return out
}

// entryTwins returns a function that maps a location in a package loaded
// twice (a package and its test variant) to the same instruction of the
// copy the entries run: the analyzers may have reported the other copy,
// which no entry calls.
func entryTwins(prog *load.Program, entries []vm.Entry) func(loc.Loc) loc.Loc {
	root := map[*ssa.Package]bool{}
	for _, e := range entries {
		root[e.Fn.Package()] = true
	}
	byPos := map[token.Pos][]*ssa.Function{}
	for fn := range ssautil.AllFunctions(prog.SSA) {
		if fn.Pos().IsValid() && fn.Package() != nil && root[fn.Package()] {
			byPos[fn.Pos()] = append(byPos[fn.Pos()], fn)
		}
	}
	return func(l loc.Loc) loc.Loc {
		if l.Fn == nil || l.Fn.Package() == nil || root[l.Fn.Package()] {
			return l
		}
		for _, g := range byPos[l.Fn.Pos()] {
			if g.String() == l.Fn.String() || (g.Name() == l.Fn.Name() && len(g.Blocks) == len(l.Fn.Blocks)) {
				if l.Block < len(g.Blocks) && l.Index < len(g.Blocks[l.Block].Instrs) {
					return loc.Loc{Fn: g, Block: l.Block, Index: l.Index}
				}
			}
		}
		return l
	}
}

func confirmOne(ctx context.Context, prog *load.Program, sp *slice.Program, w *Warning, cfg ConfirmConfig, used map[ssa.Instruction]bool) (v WarningVerdict) {
	v = WarningVerdict{Warning: w, Verdict: Undecided, Exhausted: true}
	v.Entries = reachingEntries(prog, sp, w.Targets, cfg.Entries)
	if len(v.Entries) == 0 {
		v.Exhausted = false
		if g := genericTarget(w.Targets); g != nil {
			// the code runs as instances of g, which the call graph
			// walk does not map back to g's own body
			v.Note = "in generic code (" + g.Name() + "): its instances' callers are not followed"
			return v
		}
		v.Verdict = Unreached
		return v
	}
	share := cfg.TimeLimit / time.Duration(len(v.Entries))
	if cfg.EntryTimeLimit > 0 {
		share = cfg.EntryTimeLimit
	}
	if share < time.Second {
		share = time.Second
	}
	start := time.Now()
	defer func() { v.Time = time.Since(start) }()
	allDone := true
	v.Preemptions = -1
	for _, e := range v.Entries {
		if ctx.Err() != nil {
			allDone = false
			break
		}
		if cfg.Progress != nil {
			cfg.Progress(w, e)
		}
		var invisible func(ssa.Instruction) bool
		if cfg.Reduce {
			var n int
			invisible, n = Reduction(prog, sp, w.Targets, e)
			if v.Hidden == 0 || n < v.Hidden {
				v.Hidden = n
			}
		}
		entryStart := time.Now()
		var srcs []ssa.Instruction
		if cfg.Payload && e.Kind != vm.EntryFuzz {
			for _, s := range payloadSources(prog, sp, e) {
				if !used[s] {
					srcs = append(srcs, s)
				}
			}
		}
		check1 := func(ctx context.Context, everyRace bool, limit time.Duration, p *vm.Payload) (*CheckResult, error) {
			opts := w.options(prog, cfg.Options(e), everyRace)
			if cfg.Reduce {
				opts.Invisible, opts.ReducedFor = invisible, w.Targets
			}
			opts.Payload = p
			cc := CheckConfig{Options: opts, Entry: e, Guides: [][]loc.Loc{w.Targets}, Bounded: true, BoundedShare: 1.0 / 2,
				Strategy: Guided, Heuristic: heuristics.SecPFSM, Seed: cfg.Seed, Trials: 1, Parallel: 1,
				TimeLimit: limit, MaxDepth: 100000, MaxBacktrack: 100000, FallbackTimers: e.Kind != vm.EntryMain}
			cc.Options.Symbolic = e.Kind == vm.EntryFuzz
			res, err := Check(ctx, prog, cc)
			if err == nil {
				for _, t := range res.Trials {
					v.States += t.Result.Stats.States
				}
			}
			return res, err
		}
		var abstracted int
		check := func(everyRace bool, limit time.Duration) (*CheckResult, error) {
			res, kept, dropped, err := checkPayload(ctx, prog.Fset, w, srcs, limit, func(ctx context.Context, limit time.Duration, p *vm.Payload) (*CheckResult, error) {
				return check1(ctx, everyRace, limit, p)
			})
			for _, s := range srcs {
				used[s] = true
			}
			for _, s := range kept {
				delete(used, s)
			}
			srcs, abstracted = kept, len(kept)
			v.Dropped += dropped
			return res, err
		}
		// Every race an error first: the bounded search then schedules at
		// synchronization operations only (syncpoints.go), far fewer
		// states for the same bound. A race elsewhere voids that argument:
		// the rest of the share goes to a search for the warning alone.
		res, err := check(true, share)
		if err == nil && res.Verdict == VerdictError {
			if ve := res.Best.Result.Final.Err(); ve != nil && ve.Kind == vm.KindRace && !shows(prog.Fset, w, ve) {
				if left := share - time.Since(entryStart); left > 0 {
					res, err = check(false, left)
				}
			}
		}
		if err != nil {
			v.Note, allDone = err.Error(), false
			continue
		}
		v.Abstracted += abstracted
		switch res.Verdict {
		case VerdictError:
			ve := res.Best.Result.Final.Err()
			if ve != nil && shows(prog.Fset, w, ve) {
				v.Verdict, v.Entry, v.Result = Confirmed, e, res
				v.Exhausted, v.Preemptions = false, 0
				return v
			}
			allDone = false
			if ve != nil {
				v.Note = fmt.Sprintf("%s: another error first (%s at %s)", e.Fn.Name(), ve.Kind, ve.Pos)
				if ve.Kind == vm.KindUnsupported {
					v.Note = fmt.Sprintf("%s: not checked: %s", e.Fn.Name(), ve.Msg)
				}
			}
		case VerdictNoError:
			if !res.Exhausted {
				v.Exhausted = false
				if v.Preemptions < 0 || res.Preemptions < v.Preemptions {
					v.Preemptions = res.Preemptions
				}
			}
		default:
			allDone = false
		}
	}
	if allDone {
		v.Verdict = Infeasible
		if v.Exhausted {
			v.Preemptions = 0
		}
	} else {
		v.Exhausted, v.Preemptions = false, 0
	}
	return v
}

// options are the VM options of w's checks on prog: only the errors that
// show w are reported; any other error that ends a Go program ends the
// execution quietly (vm.Options.Quiet), so the search goes on with the
// others and a completed search means that no execution shows w. With
// everyRace every race is an error (Quiet never silences one); without,
// races are looked for only when w predicts one, and then only those with
// an access on a target line (vm.Options.RaceAt; a race does not end a Go
// program). A warning shown by reaching its targets makes them
// unreachable locations.
func (w *Warning) options(prog *load.Program, o vm.Options, everyRace bool) vm.Options {
	race := false
	for _, k := range w.Show {
		race = race || k == vm.KindRace
		if k == vm.KindLeak {
			o.Checks.Leak = true
		}
	}
	o.Checks.Race = race || everyRace
	if race && !everyRace {
		o.RaceAt = w.Targets
	}
	o.Quiet = func(e *vm.Error) bool { return !shows(prog.Fset, w, e) }
	if len(w.Show) == 0 {
		o.Unreachable = append(append([]loc.Loc(nil), o.Unreachable...), w.Targets...)
	}
	return o
}

// shows reports whether error e is what warning w predicts.
func shows(fset *token.FileSet, w *Warning, e *vm.Error) bool {
	if len(w.Show) == 0 {
		return e.Kind == vm.KindUnreachable && lineIn(fset, e.Loc, w.Targets)
	}
	kindOK := false
	for _, k := range w.Show {
		kindOK = kindOK || e.Kind == k
	}
	if !kindOK {
		return false
	}
	if w.AnyLock {
		for _, g := range e.Goroutines {
			if strings.Contains(g.Wait, "Lock") {
				return true
			}
		}
		return false
	}
	if e.Kind == vm.KindRace { // a race at one of the accesses the warning names
		for _, g := range e.Goroutines {
			if lineIn(fset, g.Loc, w.Targets) {
				return true
			}
		}
		return false
	}
	for _, t := range w.Targets {
		hit := lineIn(fset, e.Loc, []loc.Loc{t})
		for _, g := range e.Goroutines {
			hit = hit || lineIn(fset, g.Loc, []loc.Loc{t}) || runsDeferOf(g.Loc, t)
			for _, f := range g.Stack {
				hit = hit || lineIn(fset, f.Loc, []loc.Loc{t}) || runsDeferOf(f.Loc, t)
			}
		}
		if !hit {
			return false
		}
	}
	return true
}

// runsDeferOf reports whether a frame at l is running the deferred calls of
// the function of t, a defer statement: a call deferred at t blocks while
// its frame stands at the function's exit, not on t's line.
func runsDeferOf(l, t loc.Loc) bool {
	if _, ok := t.Instr().(*ssa.Defer); !ok || l.Fn != t.Fn {
		return false
	}
	switch l.Instr().(type) {
	case *ssa.RunDefers, *ssa.Return:
		return true
	}
	return false
}

// lineIn reports whether l is on the source line of one of ts.
func lineIn(fset *token.FileSet, l loc.Loc, ts []loc.Loc) bool {
	if l.Fn == nil {
		return false
	}
	p := fset.Position(l.Pos())
	for _, t := range ts {
		q := fset.Position(t.Pos())
		if p.IsValid() && p.Filename == q.Filename && p.Line == q.Line {
			return true
		}
	}
	return false
}

// reachingEntries returns the entries whose call graph may reach a
// target's function: a backward walk over the call graph (slice.Program's
// VTA callers), where a function used as a value (a closure, a method
// value, a func handed to a function without a body such as sync.Once.Do)
// is also reached from every function that uses it. A walk that reaches a
// package initializer makes every entry a candidate, unless the forward
// call graph tells which entries call the code (a function kept in a
// package-level table and called by some entries only). Only a function
// called by reflection alone escapes the walk.
func reachingEntries(prog *load.Program, sp *slice.Program, targets []loc.Loc, entries []vm.Entry) []vm.Entry {
	users := valueUsers(prog)
	seen := map[*ssa.Function]bool{}
	var work []*ssa.Function
	add := func(fn *ssa.Function) {
		if fn != nil && !seen[fn] {
			seen[fn] = true
			work = append(work, fn)
		}
	}
	for _, t := range targets {
		add(t.Fn)
	}
	all := false
	for len(work) > 0 {
		fn := work[0]
		work = work[1:]
		if fn.Name() == "init" || strings.HasPrefix(fn.Name(), "init#") {
			all = true
		}
		for _, c := range sp.Callers(fn) {
			add(c.Loc.Fn)
		}
		add(fn.Parent())
		for _, u := range users[fn] {
			add(u)
		}
	}
	var out []vm.Entry
	for _, e := range entries {
		if seen[e.Fn] {
			out = append(out, e)
		}
	}
	if all {
		// A package initializer leads to the code (a function stored in a
		// package-level table): every entry may run it, unless the call
		// graph shows which entries call it through the table.
		if fwd := forwardEntries(prog, sp, targets, entries); len(fwd) > 0 {
			return mergeEntries(out, fwd, entries)
		}
		return entries
	}
	return out
}

// forwardEntries returns the entries whose call graph (VTA, which follows
// function values through variables and fields) reaches a target's
// function; all of them when the package initializers' call graph does
// (every entry runs them).
func forwardEntries(prog *load.Program, sp *slice.Program, targets []loc.Loc, entries []vm.Entry) []vm.Entry {
	var inits []*ssa.Function
	for _, p := range prog.SSA.AllPackages() {
		if f := p.Func("init"); f != nil {
			inits = append(inits, f)
		}
	}
	initReach := sp.ReachableFrom(inits)
	for _, t := range targets {
		if initReach[t.Fn] {
			return entries
		}
	}
	var out []vm.Entry
	for _, e := range entries {
		reach := sp.ReachableFrom([]*ssa.Function{e.Fn})
		for _, t := range targets {
			if reach[t.Fn] {
				out = append(out, e)
				break
			}
		}
	}
	return out
}

// mergeEntries returns the entries in a or b, in the order of all.
func mergeEntries(a, b, all []vm.Entry) []vm.Entry {
	in := map[*ssa.Function]bool{}
	for _, e := range append(append([]vm.Entry(nil), a...), b...) {
		in[e.Fn] = true
	}
	var out []vm.Entry
	for _, e := range all {
		if in[e.Fn] {
			out = append(out, e)
		}
	}
	return out
}

// valueUsers maps each function used as a value (not as the callee of a
// static call) to the functions that use it so.
func valueUsers(prog *load.Program) map[*ssa.Function][]*ssa.Function {
	out := map[*ssa.Function][]*ssa.Function{}
	var ops []*ssa.Value
	for fn := range ssautil.AllFunctions(prog.SSA) {
		for _, b := range fn.Blocks {
			for _, in := range b.Instrs {
				ops = in.Operands(ops[:0])
				for i, op := range ops {
					if op == nil {
						continue
					}
					g, ok := (*op).(*ssa.Function)
					if !ok {
						continue
					}
					if c, isCall := in.(ssa.CallInstruction); isCall && i == 0 && c.Common().Method == nil && c.Common().Value == g {
						continue // the static callee
					}
					out[g] = append(out[g], fn)
				}
			}
		}
	}
	return out
}

// blocking are the error kinds that show a blocking warning.
var blocking = []vm.Kind{vm.KindDeadlock, vm.KindLeak, vm.KindHang}

// NewWarning makes the Warning to check of a finding of check at pos with
// the given targets: what shows it real follows the check (gmc's analyzers,
// and the error kinds of gmc's own SARIF logs); any other check (go vet's,
// another tool's rules) is a misuse that reaching its line shows.
func NewWarning(source, check, pos, msg string, targets []loc.Loc) *Warning {
	w := &Warning{Source: source, Check: check, Pos: pos, Msg: msg, Targets: targets}
	switch check {
	case "lockorder", "doublelock", "chanblock", "condwait", "deadlock", "leak", "hang",
		"SA2003": // staticcheck: a deferred Lock right after a Lock
		w.Show = blocking
	case "missingunlock":
		w.Show, w.AnyLock = blocking, true
	case "lockset", "race":
		w.Show = []vm.Kind{vm.KindRace}
	case "panic", "fatal", "assert":
		w.Show = []vm.Kind{vm.Kind(check)}
	}
	return w
}

// genericTarget returns the generic function a target's code belongs to
// (itself or an enclosing function with type parameters), or nil.
func genericTarget(targets []loc.Loc) *ssa.Function {
	for _, t := range targets {
		for f := t.Fn; f != nil; f = f.Parent() {
			if f.TypeParams().Len() > 0 {
				return f
			}
		}
	}
	return nil
}
