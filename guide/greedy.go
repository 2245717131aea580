package guide

import (
	"sort"

	"github.com/gmc-go/gmc/heuristics"
	"github.com/gmc-go/gmc/vm"
	"github.com/gmc-go/gmc/vm/loc"
)

// greedy is the guided search: greedy depth-first search with the two-tier
// meta ranking (Fig. 3.2 and 3.4) and stochastic backtracking (Fig. 3.5).
func (se *searcher) greedy(root *vm.State) Result {
	return newGuided(se, root).run()
}

// guided is the state of a guided search, kept between the calls of run so
// that a search stopped at a stall (Config.StopOnStall) goes on after the
// refinement where it stopped (rebase), with its visited set and its
// backtrack set, instead of starting again from the initial state.
type guided struct {
	se   *searcher
	rk   Ranker
	root entry
	cur  entry
	// visited maps a state's hash to the best first tier it was reached
	// with (plus one): the trace cursor is path-dependent, so the same
	// program state reached having matched more of the trace is new to
	// the search (a state reached with a lower or equal level is not).
	visited map[uint64]int
	bt      *BacktrackSet
	// pending is the state the search goes on with; stalled, the one it
	// would have gone on with when it stopped at a stall.
	pending, stalled *entry
	// expanded: cur's successors have been computed
	expanded bool
	// ignore holds the branches whose stalls do not stop the search
	// (those refinement cannot help; nil: none).
	ignore map[loc.Loc]bool
}

// newGuided starts a guided search of se from root.
func newGuided(se *searcher, root *vm.State) *guided {
	rk := se.cfg.Ranker
	if rk == nil {
		rk = nullRanker{}
	}
	cur := entry{s: root, r: rk.Root(root), path: &pathNode{}}
	return &guided{se: se, rk: rk, root: cur, cur: cur,
		visited: map[uint64]int{root.Hash(): cur.r.Level + 1},
		bt:      newBacktrackSet(se.cfg.MaxBacktrack)}
}

// run searches until an error, a goal, a stall (with StopOnStall), the
// end of the space or a bound of se; after a stall or a bound it can be
// called again and goes on where it stopped.
func (g *guided) run() Result {
	se, rk := g.se, g.rk
	for {
		if next := g.pending; next != nil {
			g.pending = nil
			if next.lazy > 0 {
				next = g.runLazy(*next)
			}
			if next != nil {
				// Fig. 2.4 line 14: the state the search goes on with
				// left a branch of the trace by the undesired side
				if st := next.r.Stalled; st != nil && se.cfg.StopOnStall && !isError(next.s) && !g.ignore[st.Branch] {
					g.stalled = next
					res := se.result(VerdictUnknown, nil, nil)
					res.Stall = st
					return res
				}
				if debugPath {
					debugMove(g.cur.s, next.s, next.r)
				}
				g.cur, g.expanded = *next, false
			}
		}
		cur := g.cur
		var next *entry
		if !g.expanded {
			s := cur.s
			if isError(s) {
				return se.result(VerdictError, s, cur.path)
			}
			if rk.Goal(cur.r, s) {
				r := se.result(VerdictError, s, cur.path)
				r.Goal = true
				return r
			}
			if se.stop(cur.path.depth) {
				return se.result(VerdictUnknown, nil, nil)
			}
			if cur.path.depth < se.cfg.MaxDepth {
				next = g.expand(cur)
			} else {
				se.bounded = true
			}
			g.expanded = true
		}
		for next == nil {
			if se.stop(cur.path.depth) {
				return se.result(VerdictUnknown, nil, nil)
			}
			e, ok := g.bt.Pick(se.rng)
			if !ok {
				return se.result(VerdictUnknown, nil, nil)
			}
			se.stats.Backtracks++
			if e.lazy == 0 {
				next = &e
				break
			}
			next = g.runLazy(e) // a choice not run yet: run it now
		}
		g.pending = next
	}
}

// runLazy runs the choice a lazy entry saved and ranks the state it
// reaches: nil if that state is not new.
func (g *guided) runLazy(e entry) *entry {
	parent := entry{s: e.s, r: RankState{Level: e.r.Level, Data: e.r.Data}, path: e.path}
	return g.try(parent, e.lazy-1, e.s.Choices()[e.lazy-1])
}

// expand computes and ranks the successors of cur, saves all but the one
// the search goes on with in the backtrack set, and returns that one (nil:
// none is new).
func (g *guided) expand(cur entry) *entry {
	if est, ok := g.rk.(heuristics.Estimator); ok && !g.se.cfg.Eager && len(cur.s.Choices()) <= lazyMaxChoices {
		return g.expandLazy(cur, est)
	}
	se, rk, visited := g.se, g.rk, g.visited
	s := cur.s
	choices := s.Choices()
	var mStates, hStates []entry
	mMin, hMin := 0, 0
	var others []entry
	for i, c := range choices {
		n := se.step(s, i)
		if se.cut {
			break // (the time is over: the caller's stop says so)
		}
		// an error successor is never dropped as visited: the hash need
		// not tell an error state from one without (dfs and bfs dropped
		// panics so, session 12)
		h := n.Hash()
		if !isError(n) && visited[h] > cur.r.Level+maxLevelGain {
			continue // cannot beat the level it was reached with
		}
		r := rk.Rank(cur.r, n, c)
		if !isError(n) && visited[h] > r.Level {
			continue
		}
		visited[h] = max(visited[h], r.Level+1)
		p := cur.path.child(i)
		p.data = r.Data
		e := entry{s: n, r: r, path: p, c: c}
		if r.Level > se.best {
			se.best = r.Level
		}
		if isError(n) {
			// an error successor is taken at once
			others = append(others, drain(&mStates, &hStates)...)
			mStates = []entry{e}
			break
		}
		if r.Level > cur.r.Level {
			mStates, mMin = keepMin(mStates, mMin, e, &others)
		} else {
			hStates, hMin = keepMin(hStates, hMin, e, &others)
		}
	}
	pool := mStates
	if len(pool) == 0 {
		pool = hStates
	} else {
		others = append(others, hStates...)
	}
	var next *entry
	if len(pool) > 0 {
		k := 0
		if len(pool) > 1 {
			k = se.rng.IntN(len(pool))
		}
		best := pool[k]
		next = &best
		for i, e := range pool {
			if i != k {
				others = append(others, e)
			}
		}
	}
	for _, e := range others {
		g.bt.Add(e)
	}
	return next
}

// lazyMaxChoices bounds the choices of a state whose successors the
// guided search ranks before they run: an estimate costs a distance
// computation from the goroutine's stack, and a state with thousands of
// goroutines (GoKer's Kubernetes58107) paid more for its estimates than
// the eager search pays for running its successors.
const lazyMaxChoices = 64

// expandLazy ranks the choices of cur before they run (est), runs them
// best first (ties in random order) until one gives a new state, which it
// returns, and saves the others, not run, in the backtrack set with their
// estimates (the level of cur): they run when the search backtracks to
// them (run). Only run choices count as states.
func (g *guided) expandLazy(cur entry, est heuristics.Estimator) *entry {
	s := cur.s
	choices := s.Choices()
	order := make([]int, len(choices))
	keys := make([]int, len(choices))
	for i, c := range choices {
		order[i] = i
		keys[i] = est.Estimate(cur.r, s, c)
	}
	g.se.rng.Shuffle(len(order), func(a, b int) { order[a], order[b] = order[b], order[a] })
	sort.SliceStable(order, func(a, b int) bool { return keys[order[a]] < keys[order[b]] })
	for k, i := range order {
		n := g.try(cur, i, choices[i])
		if n == nil {
			continue
		}
		for _, j := range order[k+1:] {
			g.bt.Add(entry{s: s, r: RankState{Level: cur.r.Level, H: keys[j], Data: cur.r.Data}, path: cur.path, lazy: j + 1})
		}
		return n
	}
	return nil
}

// try runs choice i (c) of parent and ranks the state it reaches; nil
// when that state is not new to the search (see guided.visited).
func (g *guided) try(parent entry, i int, c vm.Choice) *entry {
	se := g.se
	n := se.step(parent.s, i)
	h := n.Hash()
	if !isError(n) && g.visited[h] > parent.r.Level+maxLevelGain {
		return nil
	}
	r := g.rk.Rank(parent.r, n, c)
	if !isError(n) && g.visited[h] > r.Level {
		return nil
	}
	g.visited[h] = max(g.visited[h], r.Level+1)
	p := parent.path.child(i)
	p.data = r.Data
	se.best = max(se.best, r.Level)
	return &entry{s: n, r: r, path: p, c: c}
}

// rebase goes on under ranker rk, whose trace set is the old one with
// trace i refined from its step diff on (the steps before are the same):
// the saved states — the backtrack set and the stalled state — are ranked
// again, their paths matched anew from the initial state
// (heuristics.Rebaser; the ranks of shared ancestors are computed once),
// and the search goes on as a depth-first search backtracking from the
// stall would: with the best saved successor (the highest first tier, then
// the least secondary value) of the deepest state of the kept prefix of
// the stalled path that has one from which a head of the refined set is
// reachable (else that has one). The kept prefix is the stalled path up to
// the transition where it matched the old step diff: what followed it ran
// before the steps the refinement put there. The visited set is kept. It reports false, changing nothing, when it cannot: rk or the
// old ranker cannot rank paths again, or no saved state is in the kept
// prefix (the refinement invalidated the prefix).
func (g *guided) rebase(rk Ranker, i, diff int) bool {
	rb, ok := rk.(heuristics.Rebaser)
	old, ok2 := g.rk.(heuristics.Rebaser)
	if !ok || !ok2 || g.stalled == nil {
		return false
	}
	// cut: the first transition of the stalled path past the kept prefix
	var path []*pathNode
	for q := g.stalled.path; q.parent != nil; q = q.parent {
		path = append(path, q)
	}
	var cut *pathNode
	or := old.Root(g.root.s)
	for j := len(path) - 1; j >= 0; j-- {
		or = old.Rebase(or, RankState{Data: path[j].data})
		if old.TracePos(or, i) > diff {
			cut = path[j]
			break
		}
	}
	kept := func(p *pathNode) bool {
		if cut == nil {
			return true
		}
		for q := p; q != nil && q.depth >= cut.depth; q = q.parent {
			if q == cut {
				return false
			}
		}
		return true
	}
	memo := map[*pathNode]RankState{g.root.path: rk.Root(g.root.s)}
	rankOf := func(p *pathNode) RankState {
		var chain []*pathNode
		var base RankState
		for q := p; ; q = q.parent {
			if r, ok := memo[q]; ok {
				base = r
				break
			}
			chain = append(chain, q)
		}
		for k := len(chain) - 1; k >= 0; k-- {
			base = rb.Rebase(base, RankState{Data: chain[k].data})
			memo[chain[k]] = base
		}
		return base
	}
	saved := append(g.bt.all(), *g.stalled)
	est, _ := rk.(heuristics.Estimator)
	// the best saved state of each parent (lazy entries are choices of
	// the state their path leads to)
	bestOf := map[*pathNode]int{}
	for k := range saved {
		e := &saved[k]
		pn := e.path
		if e.lazy > 0 {
			pr := rankOf(e.path)
			e.r = RankState{Level: pr.Level, Data: pr.Data}
			if est != nil {
				e.r.H = est.Estimate(pr, e.s, e.s.Choices()[e.lazy-1])
			}
		} else {
			e.r = rk.Rank(rankOf(e.path.parent), e.s, e.c)
			pn = e.path.parent
		}
		if b, ok := bestOf[pn]; !ok || e.r.Level > saved[b].r.Level || (e.r.Level == saved[b].r.Level && e.r.H < saved[b].r.H) {
			bestOf[pn] = k
		}
	}
	// go on as a depth-first search backtracking from the stall would:
	// with the best other successor of the deepest state of the kept
	// prefix of the stalled path that has one
	from := g.stalled.path.parent
	if cut != nil {
		from = cut.parent
	}
	best := -1
	for q := from; q != nil; q = q.parent {
		if b, ok := bestOf[q]; ok && kept(saved[b].path) {
			if best < 0 {
				best = b
			}
			if saved[b].r.H < heuristics.Inf {
				best = b // one from which the next head is reachable
				break
			}
		}
	}
	if best < 0 {
		// put the states back as they were: the caller starts again
		for _, e := range saved[:len(saved)-1] {
			g.bt.Add(e)
		}
		return false
	}
	bt := newBacktrackSet(g.bt.cap)
	for k, e := range saved {
		if k != best {
			bt.Add(e)
		}
		g.se.best = max(g.se.best, e.r.Level)
	}
	g.rk, g.se.cfg.Ranker, g.bt = rk, rk, bt
	g.cur.r = rankOf(g.cur.path)
	g.stalled = nil
	g.pending = &saved[best]
	return true
}

// goOn makes a search stopped at a stall go on with the stalled state.
func (g *guided) goOn() {
	if g.stalled != nil {
		g.pending, g.stalled = g.stalled, nil
	}
}

// maxLevelGain bounds how many trace locations one transition can match
// (the goroutine that ran stands at one location): a successor whose state
// was reached with a level above its parent's plus this is skipped unranked.
const maxLevelGain = 1

// keepMin implements next_state_to_explore (Fig. 3.4): keep the states of
// least secondary value; the others go to the backtrack set.
func keepMin(states []entry, min int, e entry, others *[]entry) ([]entry, int) {
	switch {
	case len(states) == 0 || e.r.H == min:
		return append(states, e), e.r.H
	case e.r.H < min:
		*others = append(*others, states...)
		return []entry{e}, e.r.H
	}
	*others = append(*others, e)
	return states, min
}

func drain(a, b *[]entry) []entry {
	out := append(append([]entry(nil), *a...), *b...)
	*a, *b = nil, nil
	return out
}

// nullRanker ranks every state equally (the guided search then behaves as
// a randomized greedy DFS).
type nullRanker struct{}

func (nullRanker) Root(*vm.State) RankState                       { return RankState{} }
func (nullRanker) Rank(RankState, *vm.State, vm.Choice) RankState { return RankState{} }
func (nullRanker) Goal(RankState, *vm.State) bool                 { return false }
