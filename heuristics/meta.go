package heuristics

import (
	"golang.org/x/tools/go/ssa"

	"sync"

	"github.com/gmc-go/gmc/abstract"
	"github.com/gmc-go/gmc/vm"
	"github.com/gmc-go/gmc/vm/loc"
)

// Secondary names a secondary heuristic (the --heuristic values).
type Secondary string

const (
	SecPFSM          Secondary = "pfsm"
	SecFSM           Secondary = "fsm"
	SecRandom        Secondary = "random"
	SecPreferThreads Secondary = "prefer-threads"
)

// Meta is the two-tier meta heuristic over one abstract trace set.
type Meta struct {
	TS   *abstract.TraceSet
	Sec  Secondary
	Dist Distance // for pfsm and fsm
	// GoalTargets makes reaching every target at once a goal (user targets);
	// otherwise targets only guide the search toward the error.
	GoalTargets bool

	loops sync.Map // loc.Loc of a branch step -> bool (see loopsBack)
}

// metaData is Meta's per-path data.
type metaData struct {
	cur  abstract.Cursor
	last int // goroutine that ran last (prefer-threads)
	// at is where the goroutine that ran stands (moved: it has not
	// exited): what the cursor advanced by, kept so that Rebase can match
	// the path against another trace set without its states
	at    loc.Loc
	moved bool
}

// Breakpoints returns the locations the VM must stop before so that the
// search can observe the trace: every step, and the first instruction of
// both successors of each branch step.
func (m *Meta) Breakpoints() []loc.Loc {
	var out []loc.Loc
	seen := map[loc.Loc]bool{}
	add := func(l loc.Loc) {
		if !seen[l] && l.Fn != nil {
			seen[l] = true
			out = append(out, l)
		}
	}
	for _, t := range m.TS.Traces {
		for _, st := range t.Steps {
			add(st.Loc)
			if st.Kind&abstract.Branch != 0 {
				for _, b := range st.Loc.Fn.Blocks[st.Loc.Block].Succs {
					add(loc.Loc{Fn: st.Loc.Fn, Block: b.Index})
				}
			}
		}
	}
	return out
}

// Root implements Ranker.
func (m *Meta) Root(s *vm.State) Rank {
	return Rank{Data: metaData{cur: m.TS.NewCursor()}, H: Inf}
}

// Rank implements Ranker: advance the cursor if the goroutine that ran now
// stands at the head of a trace; detect a stall at a branch; rank the
// sides of a data choice; measure the distance to the next heads.
//
// A stall (the refinement trigger of Fig. 2.4 line 14) is a goroutine that
// stood at the matched branch step of a trace, executed the branch and left
// it by the undesired side, from which it cannot come back to the branch in
// the same call (a loop that goes round once more is no stall). A data
// choice (vm.ChooseBranch) at such a branch is not a stall: its other side
// is a sibling, and the side the trace needs ranks better (the seed's data
// ranking, §2.5): the undesired side gets a secondary value worse than any
// distance.
func (m *Meta) Rank(parent Rank, child *vm.State, c vm.Choice) Rank {
	pd := parent.Data.(metaData)
	stack := child.Stack(c.G)
	r := Rank{}
	var md metaData
	cur := pd.cur
	undesired := false
	if len(stack) > 0 {
		at := stack[0]
		for i, t := range m.TS.Traces {
			p := cur.Pos(i)
			if p == 0 {
				continue
			}
			st := t.Steps[p-1]
			if st.Loc != c.Loc || st.Kind&abstract.Branch == 0 || st.Succ < 0 {
				continue
			}
			if c.Kind == vm.ChooseBranch {
				// Branch 1 takes the true side, successor 0
				undesired = undesired || (c.Branch == 1) != (st.Succ == 0)
				continue
			}
			if at != c.Loc && !st.Took(at) && !m.loopsBack(st) {
				r.Stalled = &Stall{Trace: i, Step: p - 1, Branch: c.Loc}
			}
		}
		cur, _ = m.TS.Advance(cur, at)
		md.at, md.moved = at, true
	}
	r.Level = cur.Matched()
	md.cur, md.last = cur, c.G
	r.Data = md
	r.H = m.secondary(child, stack, cur, c, pd.last)
	if undesired {
		r.H = 2 * Inf
	}
	return r
}

// Rebase ranks again, against m's trace set, a step of a path that old
// ranked (a rank a Meta gave, maybe over another trace set: refinement
// changed it) whose parent state m ranks parent: the cursor advances by
// where the goroutine that ran stood, as Rank advanced it. It needs no
// state, so the result has the first tier and the per-path data only (H is
// 0, no stall): what the ancestors of a saved state need to rank it again
// with Rank (guide's resumed refinement).
func (m *Meta) Rebase(parent, old Rank) Rank {
	pd, od := parent.Data.(metaData), old.Data.(metaData)
	md := od
	md.cur = pd.cur
	if od.moved {
		md.cur, _ = m.TS.Advance(pd.cur, od.at)
	}
	return Rank{Level: md.cur.Matched(), Data: md}
}

// TracePos implements Rebaser: the steps of trace i that a path ranked r
// has matched.
func (m *Meta) TracePos(r Rank, i int) int { return r.Data.(metaData).cur.Pos(i) }

// Estimate implements Estimator: the rank of choice c of state s (whose
// rank is parent) before it runs, from where c's goroutine stands and the
// trace set: for pfsm and fsm the distance from its stack to the nearest
// head (from a go statement, also from the new goroutine's start; for a
// goroutine not started yet, from its function's start, where its first
// transition takes it); a
// goroutine that already stands at a head it has not matched would leave
// it unmatched, so it ranks after every finite distance (Inf/2); the side
// of a data choice the trace does not take ranks last, as in Rank. For
// prefer-threads, 0 for the goroutine that ran last; for random, 0.
func (m *Meta) Estimate(parent Rank, s *vm.State, c vm.Choice) int {
	pd := parent.Data.(metaData)
	if c.Kind == vm.ChooseBranch {
		for i, t := range m.TS.Traces {
			p := pd.cur.Pos(i)
			if p == 0 {
				continue
			}
			st := t.Steps[p-1]
			if st.Loc == c.Loc && st.Kind&abstract.Branch != 0 && st.Succ >= 0 && (c.Branch == 1) != (st.Succ == 0) {
				return 2 * Inf
			}
		}
	}
	switch m.Sec {
	case SecRandom:
		return 0
	case SecPreferThreads:
		if c.G == pd.last {
			return 0
		}
		return 1
	}
	heads := m.TS.Heads(pd.cur)
	if len(heads) == 0 || m.Dist == nil {
		return 0
	}
	if fn := s.StartFunc(c.G); fn != nil {
		// its first transition starts it: it arrives at fn's start
		return 2 * m.nearest([]loc.Loc{{Fn: fn}}, heads)
	}
	best := m.nearest(s.Stack(c.G), heads)
	if best == 0 {
		best = Inf / 2
	}
	if c.Loc.Fn != nil {
		if g, ok := c.Loc.Instr().(*ssa.Go); ok {
			if fn := goTarget(g); fn != nil {
				best = min(best, m.nearest([]loc.Loc{{Fn: fn}}, heads))
			}
		}
	}
	// among equal distances the goroutine that ran last goes on: two
	// goroutines at the same distance would otherwise interleave a
	// sequence of steps the trace needs from one of them (a load and its
	// store: the update of one would be lost)
	best *= 2
	if c.G != pd.last {
		best++
	}
	return best
}

// loopsBack reports whether the undesired side of a branch step can reach
// the branch again within its function (the branch is in a loop the
// undesired side stays in).
func (m *Meta) loopsBack(st abstract.Step) bool {
	if v, ok := m.loops.Load(st.Loc); ok {
		return v.(bool)
	}
	blocks := st.Loc.Fn.Blocks
	seen := make([]bool, len(blocks))
	var work []int
	for i, s := range blocks[st.Loc.Block].Succs {
		if i != st.Succ {
			work = append(work, s.Index)
		}
	}
	back := false
	for len(work) > 0 && !back {
		b := work[len(work)-1]
		work = work[:len(work)-1]
		if b == st.Loc.Block {
			back = true
			break
		}
		if seen[b] {
			continue
		}
		seen[b] = true
		for _, s := range blocks[b].Succs {
			work = append(work, s.Index)
		}
	}
	m.loops.Store(st.Loc, back)
	return back
}

// secondary is the second tier of a successor: for pfsm and fsm, the
// distance from the location of the goroutine that ran (the seed's
// getCurrentLoc, the most recently executed thread) to the nearest head of
// the trace set; after a go statement, also from the new goroutine's
// start. A goroutine that cannot reach any head gets Inf: moves of
// goroutines the trace does not need rank below every move toward it, so
// they wait instead of running ahead (a setter that completes both writes
// before the checker exists hides Reorder's bug; a reader that passes its
// check before the two-stager's first stage hides TwoStage's).
func (m *Meta) secondary(s *vm.State, stack []loc.Loc, cur abstract.Cursor, c vm.Choice, last int) int {
	switch m.Sec {
	case SecRandom:
		return int(s.Hash() % 1024)
	case SecPreferThreads:
		if c.G == last {
			return 0
		}
		return 1
	}
	heads := m.TS.Heads(cur)
	if len(heads) == 0 || m.Dist == nil {
		return 0
	}
	best := m.nearest(stack, heads)
	// a go statement moves its new goroutine too: it stands at its start
	if fn := goCallee(s.LastStep()); fn != nil {
		best = min(best, m.nearest([]loc.Loc{{Fn: fn}}, heads))
	}
	return best
}

// nearest is the distance from a goroutine's stack to the nearest head.
func (m *Meta) nearest(stack []loc.Loc, heads []abstract.Step) int {
	best := Inf
	for _, h := range heads {
		best = min(best, m.Dist.Distance(stack, h.Loc))
	}
	return best
}

// Goal implements Ranker.
func (m *Meta) Goal(r Rank, s *vm.State) bool {
	if !m.GoalTargets {
		return false
	}
	md := r.Data.(metaData)
	if !m.TS.Done(md.cur) {
		return false
	}
	used := map[int]bool{}
	for _, t := range m.TS.Traces {
		target := t.Target()
		ok := false
		for _, id := range s.GoroutineIDs() {
			if used[id] {
				continue
			}
			if st := s.Stack(id); len(st) > 0 && st[0] == target {
				used[id] = true
				ok = true
				break
			}
		}
		if !ok {
			return false
		}
	}
	return true
}

// goCallee returns the function a go statement executed by step starts,
// when it is known statically (a function or a closure), or nil.
func goCallee(step vm.Step) *ssa.Function {
	if step.Op != "go" || step.Loc.Fn == nil {
		return nil
	}
	g, ok := step.Loc.Instr().(*ssa.Go)
	if !ok {
		return nil
	}
	return goTarget(g)
}

// goTarget returns the function go statement g starts when it is known
// statically (a function or a closure), or nil.
func goTarget(g *ssa.Go) *ssa.Function {
	if mc, ok := g.Call.Value.(*ssa.MakeClosure); ok {
		fn, _ := mc.Fn.(*ssa.Function)
		return fn
	}
	if g.Call.Method == nil {
		return g.Call.StaticCallee()
	}
	return nil
}
