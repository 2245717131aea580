package guide

import "github.com/gmc-go/gmc/vm"

// greedy is the guided search: greedy depth-first search with the two-tier
// meta ranking (Fig. 3.2 and 3.4) and stochastic backtracking (Fig. 3.5).
func (se *searcher) greedy(root *vm.State) Result {
	rk := se.cfg.Ranker
	if rk == nil {
		rk = nullRanker{}
	}
	cur := entry{s: root, r: rk.Root(root), path: &pathNode{}}
	// visited maps a state's hash to the best first tier it was reached
	// with (plus one): the trace cursor is path-dependent, so the same
	// program state reached having matched more of the trace is new to
	// the search (a state reached with a lower or equal level is not).
	visited := map[uint64]int{root.Hash(): cur.r.Level + 1}
	bt := newBacktrackSet(se.cfg.MaxBacktrack)
	type cand struct {
		e entry
	}
	for {
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
		var next *entry
		if cur.path.depth < se.cfg.MaxDepth {
			choices := s.Choices()
			var mStates, hStates []entry
			mMin, hMin := 0, 0
			var others []entry
			for i, c := range choices {
				n := se.step(s, i)
				h := n.Hash()
				if visited[h] > cur.r.Level+maxLevelGain {
					continue // cannot beat the level it was reached with
				}
				r := rk.Rank(cur.r, n, c)
				if visited[h] > r.Level {
					continue
				}
				visited[h] = r.Level + 1
				e := entry{s: n, r: r, path: cur.path.child(i)}
				if r.Level > se.best {
					se.best = r.Level
				}
				if isError(n) {
					// an error successor is taken at once
					mStates, hStates = []entry{e}, nil
					mMin = -1 << 62
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
				bt.Add(e)
			}
		} else {
			se.bounded = true
		}
		if next == nil {
			e, ok := bt.Pick(se.rng)
			if !ok {
				return se.result(VerdictUnknown, nil, nil)
			}
			se.stats.Backtracks++
			next = &e
		}
		// Fig. 2.4 line 14: the state the search goes on with left a branch
		// of the trace by the undesired side
		if next.r.Stalled != nil && se.cfg.StopOnStall && !isError(next.s) {
			res := se.result(VerdictUnknown, nil, nil)
			res.Stall = next.r.Stalled
			return res
		}
		if debugPath {
			debugMove(s, next.s, next.r)
		}
		cur = *next
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
