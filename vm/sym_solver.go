package vm

import (
	"runtime"
	"time"

	"github.com/gmc-go/gmc/vm/smt"
)

// solverTimeoutMS bounds one satisfiability check. A check that runs out
// of time counts as unsatisfiable for the side it asked about (the search
// may then miss that side, but never reports an infeasible path).
const solverTimeoutMS = 10000

// session is the solver side of one state chain: every state derived from
// one Start shares it. It owns one Z3 context, made on the first query, so
// a run that never branches on an input never creates one. A search uses
// its states from one goroutine, as a Z3 context requires; parallel
// searches start their own chains and so have their own sessions.
//
// The solver keeps the path condition it last checked asserted, one scope
// per constraint; a query pops to the longest common prefix with the new
// path condition and pushes the rest, so a depth-first search re-asserts
// little.
type session struct {
	ctx    *smt.Context
	solver *smt.Solver
	terms  map[*symExpr]*smt.Expr // translations, by node
	stack  []*pcNode              // the constraints asserted, oldest first

	calls int
	time  time.Duration
	// deadline: the wall-clock time (Unix ns) at which the running
	// transition is cut (thread.deadline; 0 none): a check still running
	// then is interrupted and answers Unknown, and none starts after it
	deadline int64
}

// pcNode is one constraint of a path condition: a persistent list, newest
// first, shared between states.
type pcNode struct {
	c    *symExpr // a condition (kind types.Bool) that holds on the path
	prev *pcNode
	n    int    // length of the list ending here
	h    uint64 // hash of the list
}

func (p *pcNode) push(c *symExpr) *pcNode {
	n := &pcNode{c: c, prev: p, n: 1, h: mix(fnvOffset, c.h)}
	if p != nil {
		n.n = p.n + 1
		n.h = mix(p.h, c.h)
	}
	return n
}

// list returns the constraints, oldest first.
func (p *pcNode) list() []*pcNode {
	if p == nil {
		return nil
	}
	out := make([]*pcNode, p.n)
	for q := p; q != nil; q = q.prev {
		out[q.n-1] = q
	}
	return out
}

// open makes the Z3 context on first use; it is closed when the session
// becomes unreachable (no state of the chain is left, so nothing can use
// the context any more).
func (ss *session) open() {
	if ss.ctx != nil {
		return
	}
	ctx := smt.NewContext(smt.Options{TimeoutMS: solverTimeoutMS})
	ss.ctx = ctx
	ss.solver = ctx.NewSolver()
	ss.terms = map[*symExpr]*smt.Expr{}
	runtime.AddCleanup(ss, func(c *smt.Context) { c.Close() }, ctx)
}

// term translates an expression to Z3, memoized per node.
func (ss *session) term(e *symExpr) *smt.Expr {
	if t, ok := ss.terms[e]; ok {
		return t
	}
	typ, _ := smtType(e.k)
	var t *smt.Expr
	switch e.op {
	case symVar:
		t = ss.ctx.Const(e.name, typ)
	case symConst:
		if typ == smt.Bool {
			t = ss.ctx.BoolVal(e.bits != 0)
		} else {
			t = ss.ctx.UintVal(typ, e.bits)
		}
	case symBin:
		t = ss.term(e.x).Binary(e.tok, ss.term(e.y))
	case symUn:
		t = ss.term(e.x).Unary(e.tok)
	case symConv:
		t = ss.term(e.x).Convert(typ)
	}
	ss.terms[e] = t
	return t
}

// assertPC makes the solver's assertions exactly the path condition pc.
func (ss *session) assertPC(pc *pcNode) {
	want := pc.list()
	k := 0
	for k < len(want) && k < len(ss.stack) && want[k] == ss.stack[k] {
		k++
	}
	if n := len(ss.stack) - k; n > 0 {
		ss.solver.Pop(n)
		ss.stack = ss.stack[:k]
	}
	for _, p := range want[k:] {
		ss.solver.Push()
		ss.solver.Assert(ss.term(p.c))
		ss.stack = append(ss.stack, p)
	}
}

// sat checks pc ∧ c (c nil: pc alone).
func (ss *session) sat(pc *pcNode, c *symExpr) smt.Result {
	ss.open()
	if ss.deadline != 0 {
		left := time.Until(time.Unix(0, ss.deadline))
		if left <= 0 {
			return smt.Unknown
		}
		stop := time.AfterFunc(left, ss.ctx.Interrupt)
		defer stop.Stop()
	}
	ss.assertPC(pc)
	start := time.Now()
	var r smt.Result
	if c == nil {
		r = ss.solver.Check()
	} else {
		r = ss.solver.CheckAssuming(ss.term(c))
	}
	ss.calls++
	ss.time += time.Since(start)
	return r
}

// model returns values for the expressions es under pc ∧ c (c may be nil):
// their bits, and false if the solver found no model.
func (ss *session) model(pc *pcNode, c *symExpr, es []*symExpr) ([]uint64, bool) {
	if ss.sat(pc, c) != smt.Sat {
		return nil, false
	}
	m, err := ss.solver.Model()
	if err != nil {
		return nil, false
	}
	defer m.Close()
	out := make([]uint64, len(es))
	for i, e := range es {
		t := ss.term(e)
		if t.Type() == smt.Bool {
			b, err := m.Bool(t)
			if err != nil {
				return nil, false
			}
			if b {
				out[i] = 1
			}
			continue
		}
		u, err := m.Uint64(t)
		if err != nil {
			return nil, false
		}
		out[i] = u
	}
	return out, true
}
