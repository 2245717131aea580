package abstract

import (
	"container/heap"
	"slices"

	"github.com/gmc-go/gmc/vm/loc"
)

// Step is one location of an abstract trace.
type Step struct {
	Loc  loc.Loc
	Kind Kind
	// Succ is, for a Branch step, the successor block index the execution
	// must take to follow the trace; -1 if either side will do.
	Succ int
	// Lock is the mutex of an Acquire or Release step.
	Lock string
}

// Trace is an abstract trace π (Eq. 2.6–2.7): a path of E_α from a start
// location to a target, without repeated locations.
type Trace struct {
	Steps []Step
	Calls int // call and go edges taken: the seed's ranking key
}

// Target is the trace's last location.
func (t Trace) Target() loc.Loc { return t.Steps[len(t.Steps)-1].Loc }

// Locs returns the trace's locations.
func (t Trace) Locs() []loc.Loc {
	out := make([]loc.Loc, len(t.Steps))
	for i, s := range t.Steps {
		out[i] = s.Loc
	}
	return out
}

// TraceSet is one Π_α: one abstract trace per target, index for index with
// System.Targets. The goal it encodes is every target reached, each by a
// distinct goroutine, at once.
type TraceSet struct {
	Traces []Trace
	Calls  int // the sum of the traces' Calls
}

// Len is m of the seed: the total number of locations of the set.
func (ts TraceSet) Len() int {
	n := 0
	for _, t := range ts.Traces {
		n += len(t.Steps)
	}
	return n
}

// Limits bound the enumeration of traces.
type Limits struct {
	PerTarget int // traces kept per target (P_i); default 8
	Sets      int // trace sets returned; default 16
	Expand    int // partial paths expanded per target; default 200000
}

func (l Limits) norm() Limits {
	if l.PerTarget <= 0 {
		l.PerTarget = 8
	}
	if l.Sets <= 0 {
		l.Sets = 16
	}
	if l.Expand <= 0 {
		l.Expand = 200000
	}
	return l
}

// Traces returns P_i for target i: the abstract traces to System.Targets[i],
// fewest calls first, then shortest, at most lim.PerTarget of them. Paths
// respect call/return nesting: a Return edge must return to the call site
// the path entered the function from (a path starting inside a function
// cannot return out of it).
func (s *System) Traces(i int, lim Limits) []Trace {
	lim = lim.norm()
	target := s.Targets[i]
	var out []Trace
	q := &pathQueue{}
	seen := map[string]bool{}
	seq := 0
	for _, st := range s.Starts {
		heap.Push(q, &path{loc: st, succ: -1, seq: seq})
		seq++
	}
	// Each (location, innermost call site) pair is expanded at most
	// PerTarget times: the k shortest paths to the target only extend the
	// k shortest paths to each location (as in Eppstein-style k-shortest
	// path search), which keeps large systems tractable.
	type visitKey struct {
		at, site loc.Loc
	}
	visits := map[visitKey]int{}
	for expanded := 0; q.Len() > 0 && len(out) < lim.PerTarget && expanded < lim.Expand; expanded++ {
		p := heap.Pop(q).(*path)
		vk := visitKey{at: p.loc}
		if p.stack != nil {
			vk.site = p.stack.site
		}
		if visits[vk] >= lim.PerTarget {
			continue
		}
		visits[vk]++
		if p.loc == target {
			t := s.toTrace(p)
			if k := locsKey(t.Locs()); !seen[k] {
				seen[k] = true
				out = append(out, t)
			}
			continue
		}
		for _, e := range s.Edges[p.loc] {
			if p.contains(e.To) {
				continue
			}
			stack, ok := p.stack, true
			switch e.Kind {
			case Call:
				stack = &frame{site: p.loc, next: stack}
			case Spawn:
				stack = nil
			case Return:
				for _, r := range e.Returns {
					if stack == nil || stack.site != r {
						ok = false
						break
					}
					stack = stack.next
				}
			}
			if !ok {
				continue
			}
			np := &path{loc: e.To, prev: p, stack: stack, calls: p.calls, length: p.length + 1, succ: e.Succ, seq: seq}
			if e.Kind == Call || e.Kind == Spawn {
				np.calls++
			}
			seq++
			heap.Push(q, np)
		}
	}
	return out
}

// TraceSets returns Π_A, the combinations of one trace per target, fewest
// total calls first, at most lim.Sets of them. It returns nil if some target
// has no trace.
func (s *System) TraceSets(lim Limits) []TraceSet {
	lim = lim.norm()
	per := make([][]Trace, len(s.Targets))
	for i := range s.Targets {
		per[i] = s.Traces(i, lim)
		if len(per[i]) == 0 {
			return nil
		}
	}
	// Enumerate index vectors in order of total calls (best-first over the
	// product lattice, each vector pushed once).
	type cand struct {
		idx   []int
		calls int
	}
	cost := func(idx []int) int {
		c := 0
		for i, j := range idx {
			c += per[i][j].Calls
		}
		return c
	}
	seen := map[string]bool{}
	keyOf := func(idx []int) string {
		b := make([]byte, len(idx))
		for i, j := range idx {
			b[i] = byte(j)
		}
		return string(b)
	}
	first := make([]int, len(per))
	frontier := []cand{{first, cost(first)}}
	emitted := map[string]bool{}
	expand := func(c cand) {
		for i := range c.idx {
			if c.idx[i]+1 < len(per[i]) {
				n := append([]int(nil), c.idx...)
				n[i]++
				if k := keyOf(n); !seen[k] {
					seen[k] = true
					frontier = append(frontier, cand{n, cost(n)})
				}
			}
		}
	}
	seen[keyOf(first)] = true
	var out, later []TraceSet
	for visits := 0; len(frontier) > 0 && len(out) < lim.Sets && visits < 64*lim.Sets; visits++ {
		best := 0
		for i, c := range frontier {
			if c.calls < frontier[best].calls {
				best = i
			}
		}
		c := frontier[best]
		frontier = append(frontier[:best], frontier[best+1:]...)
		expand(c)
		if k := s.unordered(c.idx); emitted[k] {
			continue // the same traces for the same targets in another order
		} else {
			emitted[k] = true
		}
		ts := TraceSet{Calls: c.calls}
		for i, j := range c.idx {
			ts.Traces = append(ts.Traces, per[i][j])
		}
		if ts.sharesStart() {
			later = append(later, ts)
		} else {
			out = append(out, ts)
		}
	}
	// a set with two traces from the same start needs two goroutines
	// started with the same function (or the entry twice): such sets come
	// after those whose traces start apart
	for _, ts := range later {
		if len(out) >= lim.Sets {
			break
		}
		out = append(out, ts)
	}
	return out
}

// unordered is the key of an index vector of TraceSets up to the order of
// the traces chosen for equal targets (whose trace lists are the same).
func (s *System) unordered(idx []int) string {
	groups := map[loc.Loc][]int{}
	var order []loc.Loc
	for i, j := range idx {
		t := s.Targets[i]
		if _, ok := groups[t]; !ok {
			order = append(order, t)
		}
		groups[t] = append(groups[t], j)
	}
	var b []byte
	for _, t := range order {
		js := groups[t]
		slices.Sort(js)
		for _, j := range js {
			b = append(b, byte(j))
		}
		b = append(b, 0xff)
	}
	return string(b)
}

// sharesStart reports whether two traces of the set begin at the same
// location.
func (ts TraceSet) sharesStart() bool {
	for i := range ts.Traces {
		for j := i + 1; j < len(ts.Traces); j++ {
			a, b := ts.Traces[i].Steps, ts.Traces[j].Steps
			if len(a) > 0 && len(b) > 0 && a[0].Loc == b[0].Loc {
				return true
			}
		}
	}
	return false
}

func (s *System) toTrace(p *path) Trace {
	var steps []Step
	for q := p; q != nil; q = q.prev {
		n := s.Nodes[q.loc]
		steps = append(steps, Step{Loc: q.loc, Kind: n.Kind, Succ: -1, Lock: n.Lock})
	}
	for i, j := 0, len(steps)-1; i < j; i, j = i+1, j-1 {
		steps[i], steps[j] = steps[j], steps[i]
	}
	// The successor taken out of a branch is recorded on the path node
	// that follows it.
	i := len(steps) - 1
	for q := p; q.prev != nil; q = q.prev {
		steps[i-1].Succ = q.succ
		if steps[i-1].Kind&Branch == 0 {
			steps[i-1].Succ = -1
		}
		i--
	}
	return Trace{Steps: steps, Calls: p.calls}
}

type frame struct {
	site loc.Loc
	next *frame
}

type path struct {
	loc    loc.Loc
	prev   *path
	stack  *frame
	calls  int
	length int
	succ   int // Succ of the edge that led here
	seq    int
}

func (p *path) contains(l loc.Loc) bool {
	for q := p; q != nil; q = q.prev {
		if q.loc == l {
			return true
		}
	}
	return false
}

type pathQueue []*path

func (q pathQueue) Len() int { return len(q) }
func (q pathQueue) Less(i, j int) bool {
	a, b := q[i], q[j]
	if a.calls != b.calls {
		return a.calls < b.calls
	}
	if a.length != b.length {
		return a.length < b.length
	}
	return a.seq < b.seq
}
func (q pathQueue) Swap(i, j int) { q[i], q[j] = q[j], q[i] }
func (q *pathQueue) Push(x any)   { *q = append(*q, x.(*path)) }
func (q *pathQueue) Pop() (x any) { x, *q = (*q)[len(*q)-1], (*q)[:len(*q)-1]; return }
