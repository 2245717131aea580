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
// States with a single successor are looked up only now and then
// (lookUp).
func (se *searcher) exhaustive(root *vm.State) Result { return se.exhaustiveLimited(root, 0) }

// exhaustiveLimited is exhaustive stopped after limit states (0: no
// limit); se.limitHit says whether a limit (states, time) stopped it.
func (se *searcher) exhaustiveLimited(root *vm.State, limit int) Result {
	return se.exhaustiveRun(root, &resumable{limit: limit, base: se.stats.States})
}

// exhaustiveRun is exhaustive under rb's budget (it pauses there when rb
// runs it as a coroutine).
func (se *searcher) exhaustiveRun(root *vm.State, rb *resumable) Result {
	if isError(root) {
		return se.result(VerdictError, root, &pathNode{})
	}
	visited := map[uint64][]choiceKey{}
	var found *vm.State
	var foundPath *pathNode
	stopped := false
	var explore func(s *vm.State, p *pathNode, sleep []sleeper)
	explore = func(s *vm.State, p *pathNode, sleep []sleeper) {
		asleep := func(k choiceKey) bool {
			for _, z := range sleep {
				if z.key == k {
					return true
				}
			}
			return false
		}
		fresh := 0       // states since the last branching one
		own := s != root // nothing but this call holds s (stepInPlace)
		for {
			if found != nil || stopped {
				return
			}
			if se.stop(p.depth) || rb.over(se) {
				stopped, se.limitHit = true, true
				return
			}
			choices := s.Choices()
			var only map[choiceKey]bool
			if lookUp(len(choices), p.depth, fresh) {
				var done bool
				if only, done = se.cacheLookup(visited, s, sleep); done {
					return
				}
			}
			if p.depth >= se.cfg.MaxDepth {
				se.bounded = true
				return
			}
			one := -1 // the only transition to explore, if there is one
			if len(choices) == 1 && only == nil {
				one = 0
			} else if len(choices) > 1 {
				n := 0
				for i, c := range choices {
					k := keyOf(c)
					if asleep(k) {
						continue
					}
					if only != nil {
						if k.g = s.GoRank(k.g); !only[k] {
							continue
						}
					}
					one, n = i, n+1
				}
				if n != 1 {
					one = -1
				} else {
					se.stats.Backtracks++ // (the others, asleep, are not explored)
				}
			}
			if one >= 0 {
				// no choice: go on in this call without keeping s (a
				// state with one transition awake is a link of a chain
				// as a single successor's is)
				k := keyOf(choices[one])
				if asleep(k) {
					se.stats.Executions++ // every transition asleep
					return
				}
				n := se.stepLink(s, one, own)
				own = true
				p = p.child(one)
				if isError(n) {
					found, foundPath = n, p
					return
				}
				sleep = awake(sleep, k, n.Footprint())
				s = n
				fresh++
				continue
			}
			ranked := func(k choiceKey) choiceKey { k.g = s.GoRank(k.g); return k }
			var twins []bool // (symmetric.go: not when completing an earlier visit)
			if only == nil {
				twins = se.twinSkips(s, choices, noSleeper(sleep))
			}
			expanded := false
			for i, nc := 0, len(choices); i < nc; i++ {
				if twins != nil && twins[i] {
					continue
				}
				if choices == nil {
					choices = s.Choices() // (released below)
				}
				k := keyOf(choices[i])
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
				choices = release(s, choices)
				explore(n, np, awake(sleep, k, fp))
				if found != nil || stopped {
					return
				}
				se.stats.Backtracks++
				sleep = append(sleep, sleeper{key: k, fp: fp})
			}
			if !expanded {
				se.stats.Executions++ // an end, or every transition asleep
			}
			return
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

// awake returns the sleepers of sleep that stay asleep after transition k
// with footprint fp: those independent of it. Transitions of one goroutine
// never commute: another side of its data choice or select is an
// alternative, not a reordering.
func awake(sleep []sleeper, k choiceKey, fp []vm.Access) []sleeper {
	var next []sleeper
	for _, z := range sleep {
		if z.key.g != k.g && !vm.Dependent(z.fp, fp) {
			next = append(next, z)
		}
	}
	return next
}

// cacheLookup applies the state-caching rule of exhaustive at s, reached
// with sleep: done when s was explored before with a subset of sleep
// asleep (nothing to explore); otherwise only, when not nil, is the set of
// transitions (goroutines by rank) to explore again, those asleep before
// and awake now. It records s's sleep set in visited.
func (se *searcher) cacheLookup(visited map[uint64][]choiceKey, s *vm.State, sleep []sleeper) (only map[choiceKey]bool, done bool) {
	h := s.Hash()
	// the visited set names goroutines by rank, as the hash does
	// (vm.State.GoRank): the same state reached along another path
	// may have its goroutines under other ids
	ranked := func(k choiceKey) choiceKey { k.g = s.GoRank(k.g); return k }
	prev, seen := visited[h]
	if !seen {
		var ks []choiceKey
		for _, z := range sleep {
			ks = append(ks, ranked(z.key))
		}
		visited[h] = ks
		return nil, false
	}
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
			se.bounded = true
		}
		return nil, true
	}
	visited[h] = keep
	return only, false
}
