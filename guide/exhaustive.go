package guide

import "github.com/gmc-go/gmc/vm"

// choiceKey identifies a transition of a state independently of the
// choice's index (which changes as other goroutines move).
type choiceKey struct {
	kind   vm.ChoiceKind
	g      int
	cas    int
	branch int
}

func keyOf(c vm.Choice) choiceKey { return choiceKey{c.Kind, c.G, c.Case, c.Branch} }

// sleeper is a transition in a sleep set with its footprint.
type sleeper struct {
	key choiceKey
	fp  []vm.Access
}

// exhaustive is depth-first search over the whole state space with sleep
// sets: after exploring transition t from s, t sleeps in the subtrees of
// s's later transitions that are independent of it (disjoint footprints),
// so interleavings that only reorder independent transitions are explored
// once. The visited set stores each state's sleep set; a state reached
// again with a sleep set that is not a superset is explored again for the
// transitions that were asleep before (Godefroid's state-caching rule).
func (se *searcher) exhaustive(root *vm.State) Result { return se.exhaustiveLimited(root, 0) }

// exhaustiveLimited is exhaustive stopped after limit states (0: no
// limit); se.limitHit says whether a limit (states, time) stopped it.
func (se *searcher) exhaustiveLimited(root *vm.State, limit int) Result {
	startStates := se.stats.States
	if isError(root) {
		return se.result(VerdictError, root, &pathNode{})
	}
	visited := map[uint64][]choiceKey{}
	var found *vm.State
	var foundPath *pathNode
	stopped := false
	var explore func(s *vm.State, p *pathNode, sleep []sleeper)
	explore = func(s *vm.State, p *pathNode, sleep []sleeper) {
		if found != nil || stopped {
			return
		}
		if se.stop(p.depth) || (limit > 0 && se.stats.States-startStates >= limit) {
			stopped, se.limitHit = true, true
			return
		}
		h := s.Hash()
		asleep := func(k choiceKey) bool {
			for _, z := range sleep {
				if z.key == k {
					return true
				}
			}
			return false
		}
		// the visited set names goroutines by rank, as the hash does
		// (vm.State.GoRank): the same state reached along another path
		// may have its goroutines under other ids
		ranked := func(k choiceKey) choiceKey { k.g = s.GoRank(k.g); return k }
		choices := s.Choices()
		var only map[choiceKey]bool
		if prev, seen := visited[h]; seen {
			// explore only what was asleep before and is awake now
			sleepRanked := map[choiceKey]bool{}
			for _, z := range sleep {
				sleepRanked[ranked(z.key)] = true
			}
			only = map[choiceKey]bool{}
			var keep []choiceKey
			for _, k := range prev {
				if !sleepRanked[k] {
					only[k] = true
				} else {
					keep = append(keep, k)
				}
			}
			if len(only) == 0 {
				se.stats.Executions++
				if s.TimersPending() {
					// a spin that fires a timer may be cut: no claim (the
					// rule of cutCycle needs every edge of a cycle
					// explored, which sleep sets do not)
					se.bounded, se.timerCut = true, true
				}
				return
			}
			visited[h] = keep
		} else {
			var ks []choiceKey
			for _, z := range sleep {
				ks = append(ks, ranked(z.key))
			}
			visited[h] = ks
		}
		if p.depth >= se.cfg.MaxDepth {
			se.bounded = true
			return
		}
		expanded := false
		defer func() {
			if !expanded && found == nil && !stopped {
				se.stats.Executions++ // an end, or every transition asleep
			}
		}()
		for i, c := range choices {
			k := keyOf(c)
			if asleep(k) || (only != nil && !only[ranked(k)]) {
				continue
			}
			expanded = true
			n := se.step(s, i)
			np := p.child(i)
			if isError(n) {
				found, foundPath = n, np
				return
			}
			fp := n.Footprint()
			var next []sleeper
			for _, z := range sleep {
				// transitions of one goroutine never commute: another
				// side of its data choice or select is an alternative,
				// not a reordering
				if z.key.g != k.g && !vm.Dependent(z.fp, fp) {
					next = append(next, z)
				}
			}
			explore(n, np, next)
			if found != nil || stopped {
				return
			}
			se.stats.Backtracks++
			sleep = append(sleep, sleeper{key: k, fp: fp})
		}
	}
	explore(root, &pathNode{}, nil)
	switch {
	case found != nil:
		return se.result(VerdictError, found, foundPath)
	case stopped || se.bounded:
		return se.result(VerdictUnknown, nil, nil)
	}
	return se.result(VerdictNoError, nil, nil)
}
