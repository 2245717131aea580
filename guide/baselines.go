package guide

import "github.com/gmc-go/gmc/vm"

// dfs is stateful depth-first search; with shuffle, the successors of each
// state are explored in a random order (randomized DFS).
func (se *searcher) dfs(root *vm.State, shuffle bool) Result {
	// The path is the stack: each frame records the choice that reached
	// it, and the path of a counterexample is built from them when one is
	// found (no path node a state).
	type frame struct {
		s      *vm.State
		order  []int  // the choices in the order to explore (nil: 0, 1, …)
		twins  []bool // the choices left out as a twin's (symmetric.go)
		n      int    // the number of choices
		next   int
		choice int // the choice of the frame below that reached s
		depth  int
	}
	var visited hashSet
	visited.add(root.Hash())
	mk := func(s *vm.State, choice, depth int) frame {
		cs := s.Choices()
		n := len(cs)
		twins := se.twinSkips(s, cs, nil)
		var order []int
		if shuffle {
			order = make([]int, n)
			for i := range order {
				order[i] = i
			}
			se.rng.Shuffle(n, func(i, j int) { order[i], order[j] = order[j], order[i] })
		}
		return frame{s: s, order: order, twins: twins, n: n, choice: choice, depth: depth}
	}
	if isError(root) {
		return se.result(VerdictError, root, &pathNode{})
	}
	stack := []frame{mk(root, 0, 0)}
	for len(stack) > 0 {
		top := &stack[len(stack)-1]
		if se.stop(top.depth) {
			return se.result(VerdictUnknown, nil, nil)
		}
		if top.next >= top.n || top.depth >= se.cfg.MaxDepth {
			if top.next < top.n {
				se.bounded = true
			}
			stack = stack[:len(stack)-1]
			if len(stack) > 0 {
				se.stats.Backtracks++
			}
			continue
		}
		i := top.next
		if top.order != nil {
			i = top.order[top.next]
		}
		top.next++
		if top.twins != nil && top.twins[i] {
			continue
		}
		n := se.step(top.s, i)
		if isError(n) {
			p := &pathNode{}
			for _, f := range stack[1:] {
				p = p.child(f.choice)
			}
			return se.result(VerdictError, n, p.child(i))
		}
		if !visited.add(n.Hash()) {
			continue
		}
		stack = append(stack, mk(n, i, top.depth+1))
	}
	if se.bounded {
		return se.result(VerdictUnknown, nil, nil)
	}
	return se.result(VerdictNoError, nil, nil)
}

// bfs is stateful breadth-first search.
func (se *searcher) bfs(root *vm.State) Result {
	type item struct {
		s    *vm.State
		path *pathNode
	}
	if isError(root) {
		return se.result(VerdictError, root, &pathNode{})
	}
	var visited hashSet
	visited.add(root.Hash())
	queue := []item{{root, &pathNode{}}}
	for len(queue) > 0 {
		it := queue[0]
		queue = queue[1:]
		if se.stop(it.path.depth) {
			return se.result(VerdictUnknown, nil, nil)
		}
		if it.path.depth >= se.cfg.MaxDepth {
			se.bounded = true
			continue
		}
		for i := range it.s.Choices() {
			n := se.step(it.s, i)
			if se.cut {
				return se.result(VerdictUnknown, nil, nil)
			}
			p := it.path.child(i)
			if isError(n) {
				return se.result(VerdictError, n, p)
			}
			if !visited.add(n.Hash()) {
				continue
			}
			queue = append(queue, item{n, p})
		}
	}
	if se.bounded {
		return se.result(VerdictUnknown, nil, nil)
	}
	return se.result(VerdictNoError, nil, nil)
}

// randomWalk repeats random executions from the initial state (stateless).
// A walk observed by the predictive monitor steers its runs toward the
// races it predicts (racefuzz.go).
func (se *searcher) randomWalk(root *vm.State) Result {
	st := newRaceSteer(se.m, se.cfg.Locks)
	for {
		s, p := root, &pathNode{}
		st.startRun()
		for {
			if isError(s) {
				return se.result(VerdictError, s, p)
			}
			if se.stop(p.depth) {
				return se.result(VerdictUnknown, nil, nil)
			}
			cs := s.Choices()
			if len(cs) == 0 || p.depth >= se.cfg.MaxDepth {
				break
			}
			var i int
			if st.active() {
				i = st.pick(s, se.rng)
			} else {
				i = se.rng.IntN(len(cs))
			}
			s = se.stepLink(s, i, s != root) // (the walk's own: made by its last step)
			p = p.child(i)
		}
		se.stats.Backtracks++
	}
}
