package guide

import "github.com/gmc-go/gmc/vm"

// This file holds a stateless search with dynamic partial-order reduction:
// source-DPOR with sleep sets (Abdulla, Aronis, Jonsson, Sagonas, POPL
// 2014, Algorithm 1). It explores at least one execution of every
// Mazurkiewicz trace (class of executions equal up to reordering adjacent
// independent transitions), with no visited set: the executions it
// explores are real runs from the initial state, and it needs no state
// hashing. Dependence is the VM's own: two transitions are dependent when
// their footprints (vm.State.Footprint: the objects their visible
// operations touch, a channel, a mutex, an atomic word, a shared variable,
// the clock) conflict, or when they belong to the same goroutine.
// Happens-before over the events of the current execution adds the go
// statement before the first transition of the goroutine it starts.
//
// At a state with a data choice or a timer choice every choice is
// explored (those are not reorderings). A goroutine chosen for a reversal
// that is not enabled where it must run makes every enabled goroutine a
// backtrack point there (the conservative fallback).
//
// Two departures from the paper keep it complete on the VM's programs
// (TestDPORStrategy): every earlier dependent event of another goroutine
// is a race, not only those ordered before the new event by the direct
// edge alone (see addEvent: a Lock ordered after another goroutine's Lock
// through the Unlock between them); and an execution that ends with live
// goroutines (blocked, or runnable when main returned) makes the search
// claim nothing, since their next transitions are in no event.
//
// It is the dpor strategy (gmc check --strategy dpor), and the
// partial-order reduction that the exhaustive strategy's sleep-set search
// with state caching (exhaustive.go) is measured against (TestPOR,
// benchmarks/dpor_compare.sh); both end with "no-error" only when the
// whole space was explored.

// dporEvent is a transition of the current execution.
type dporEvent struct {
	g       int
	fp      []vm.Access
	clock   map[int]int // per goroutine, the number of its events that happen before or at this one
	nth     int         // this event is the nth (1-based) of goroutine g
	created []int       // goroutines its go statement started
}

// dporNode is a state of the current execution with its DPOR sets.
type dporNode struct {
	s         *vm.State
	choices   []vm.Choice
	backtrack map[int]bool
	done      map[int]bool
	sleep     []sleeper
	all       bool // explore every choice (a data or timer choice is offered)
	maxG      int  // the highest goroutine id seen up to this state
}

func newDporNode(s *vm.State, sleep []sleeper, maxG int) *dporNode {
	n := &dporNode{s: s, choices: s.Choices(), backtrack: map[int]bool{}, done: map[int]bool{}, sleep: sleep, maxG: maxG}
	for _, c := range n.choices {
		if c.Kind == vm.ChooseBranch || c.Kind == vm.ChooseTimer {
			n.all = true
		}
		n.maxG = max(n.maxG, c.G)
	}
	if n.all {
		for _, c := range n.choices {
			n.backtrack[c.G] = true
		}
	}
	return n
}

func (n *dporNode) enabled(g int) bool {
	for _, c := range n.choices {
		if c.G == g {
			return true
		}
	}
	return false
}

func (n *dporNode) asleep(k choiceKey) bool {
	for _, z := range n.sleep {
		if z.key == k {
			return true
		}
	}
	return false
}

// dpor runs source-DPOR from root; limit bounds the states (0: none).
func (se *searcher) dpor(root *vm.State, limit int) Result {
	if isError(root) {
		return se.result(VerdictError, root, &pathNode{})
	}
	start := se.stats.States
	var events []*dporEvent
	var nodes []*dporNode
	var found *vm.State
	var foundPath *pathNode
	stopped, cut := false, false

	// happensBefore reports whether event a happens before event b.
	happensBefore := func(a, b *dporEvent) bool { return b.clock[a.g] >= a.nth }

	// addEvent appends the event of goroutine g with footprint fp (the
	// transition from nodes[len(events)]), computes its clock and adds
	// the backtrack points of its races.
	addEvent := func(g int, fp []vm.Access, created []int) {
		i := len(events)
		ev := &dporEvent{g: g, fp: fp, created: created, clock: map[int]int{}}
		first := true
		for _, e := range events {
			if e.g == g {
				ev.nth, first = e.nth, false
			}
		}
		ev.nth++
		join := func(c map[int]int) {
			for k, v := range c {
				if v > ev.clock[k] {
					ev.clock[k] = v
				}
			}
		}
		for _, e := range events {
			if e.g == g || vm.Dependent(e.fp, fp) {
				join(e.clock)
			}
			if first {
				for _, c := range e.created {
					if c == g {
						join(e.clock)
					}
				}
			}
		}
		ev.clock[g] = ev.nth
		// races: every earlier dependent event of another goroutine, not
		// only those that happen before ev through the direct edge alone
		// (source-DPOR's races): a mutex's Lock and the next goroutine's
		// Lock are ordered through the Unlock between them, and reversing
		// the Unlock and that Lock is impossible (the Lock is not enabled
		// before it), so the direct races alone never try the second
		// goroutine first: benchmarks/deadlock's lock-order deadlock was
		// missed. More races add backtrack points, which keeps the
		// exploration complete.
		for j, e := range events {
			if e.g == g || !vm.Dependent(e.fp, fp) {
				continue
			}
			// v = the events after e that do not happen after it, then
			// ev; its initials are the goroutines of its events that no
			// earlier event of v happens before
			var v []*dporEvent
			for k := j + 1; k < i; k++ {
				if !happensBefore(e, events[k]) {
					v = append(v, events[k])
				}
			}
			v = append(v, ev)
			initials := map[int]bool{}
			var order []int
			for x, a := range v {
				initial := true
				for _, b := range v[:x] {
					if happensBefore(b, a) || b.g == a.g {
						initial = false
						break
					}
				}
				if initial && !initials[a.g] {
					initials[a.g] = true
					order = append(order, a.g)
				}
			}
			nd := nodes[j]
			hit := false
			for q := range initials {
				if nd.backtrack[q] {
					hit = true
					break
				}
			}
			if hit {
				continue
			}
			q := order[0]
			if initials[g] {
				q = g
			}
			if nd.enabled(q) {
				nd.backtrack[q] = true
			} else {
				for _, c := range nd.choices {
					nd.backtrack[c.G] = true
				}
			}
		}
		events = append(events, ev)
	}

	var explore func(p *pathNode)
	explore = func(p *pathNode) {
		nd := nodes[len(nodes)-1]
		if len(nd.choices) == 0 {
			se.stats.Executions++
			if len(nd.s.Goroutines()) > 0 {
				// the execution ended with goroutines whose next
				// transitions never ran (blocked, or runnable when main
				// returned): they are in no event, so no race reverses
				// them; the search claims nothing
				cut = true
			}
			return
		}
		if p.depth >= se.cfg.MaxDepth {
			cut, stopped = true, true
			return
		}
		if len(nd.backtrack) == 0 {
			// start with the goroutine that ran last if it can go on
			pick := -1
			for _, c := range nd.choices {
				if !nd.asleep(keyOf(c)) && (pick < 0 || c.G == nd.s.LastStep().G) {
					pick = c.G
				}
			}
			if pick < 0 {
				se.stats.Executions++ // every enabled transition asleep
				return
			}
			nd.backtrack[pick] = true
		}
		var explored []sleeper
		for {
			g, ok := -1, false
			for _, c := range nd.choices { // in choice order: deterministic
				if nd.backtrack[c.G] && !nd.done[c.G] {
					g, ok = c.G, true
					break
				}
			}
			if !ok {
				return
			}
			nd.done[g] = true
			for i, c := range nd.choices {
				if c.G != g {
					continue
				}
				k := keyOf(c)
				if nd.asleep(k) {
					continue
				}
				if se.stop(p.depth) || (limit > 0 && se.stats.States-start >= limit) {
					stopped, se.limitHit = true, true
					return
				}
				n := se.step(nd.s, i)
				np := p.child(i)
				if isError(n) {
					found, foundPath = n, np
					return
				}
				fp := n.Footprint()
				var created []int
				if n.LastStep().Op == "go" {
					for _, c2 := range n.Choices() {
						if c2.G > nd.maxG {
							created = append(created, c2.G)
						}
					}
				}
				var next []sleeper
				for _, z := range append(append([]sleeper(nil), nd.sleep...), explored...) {
					if z.key.g != g && !vm.Dependent(z.fp, fp) {
						next = append(next, z)
					}
				}
				addEvent(g, fp, created)
				nodes = append(nodes, newDporNode(n, next, nd.maxG))
				explore(np)
				nodes = nodes[:len(nodes)-1]
				events = events[:len(events)-1]
				if found != nil || stopped {
					return
				}
				se.stats.Backtracks++
				explored = append(explored, sleeper{key: k, fp: fp})
			}
		}
	}
	nodes = append(nodes, newDporNode(root, nil, 0))
	explore(&pathNode{})
	switch {
	case found != nil:
		return se.result(VerdictError, found, foundPath)
	case stopped || cut:
		return se.result(VerdictUnknown, nil, nil)
	}
	r := se.result(VerdictNoError, nil, nil)
	r.Exhausted = true
	return r
}
