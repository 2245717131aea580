package vm

import (
	"encoding/json"
	"go/token"
	"go/types"
	"math"
	"strconv"
	"time"

	"github.com/gmc-go/gmc/vm/smt"
)

// Symbolic data (DESIGN §2, main seed §2.3 and §2.5).
//
// With Options.Symbolic and a FuzzXxx entry, each parameter of the function
// given to f.Fuzz whose type is an integer kind, bool, byte or rune is a
// symbolic input: a symExpr variable instead of its seed value (other
// parameters keep their seed). Operations on symbolic operands build
// expressions (symBinOp, symUnOp, symConvert). A branch on a symbolic
// condition asks the solver which sides are feasible under the path
// condition: one feasible side is taken directly; with both, the goroutine
// stops before the branch and the state offers a data choice (ChooseBranch)
// per side; taking a side adds its condition to the path condition. Go's
// run-time checks on symbolic operands are branches too: a division by a
// symbolic divisor and a shift by a symbolic signed count may panic, and
// when both outcomes are feasible they are a data choice. Operands that
// must be concrete (indices, lengths, map keys, arguments of natives and
// of builtins other than append/copy/len/cap, conversions to non-integers,
// panic values) are concretized: the solver picks a value and the path
// condition records it.
//
// The path condition and a pending choice are part of the state and of its
// hash. An error state's inputs are a model of its path condition
// (State.Inputs); Options.Inputs runs the same target with those values
// concretely, and the run's choice sequence is the symbolic one without its
// ChooseBranch choices (a goroutine resumed after a data choice continues
// the transition it stopped in, so the two runs cut transitions alike).

// dataState holds the symbolic side of a state: the inputs, the path
// condition and a pending data choice. It is nil for runs without symbolic
// inputs, so they never pay for it and never reach the solver. It is
// immutable: a change makes a new one.
type dataState struct {
	sess    *session
	vars    []*symExpr // the symbolic inputs, by index
	names   []string   // their names in State.Inputs
	seeds   []Value    // their seed values
	pc      *pcNode    // the path condition
	pending *pendingBranch
	// resumeVisible is set by choose when the goroutine that stopped at
	// the data choice had executed its transition's visible operation: the
	// resumed transition continues that transition.
	resumeVisible bool
}

// pendingBranch is a data choice: goroutine g stopped before a branch whose
// two sides are feasible.
type pendingBranch struct {
	g       int
	visible bool // the goroutine had executed a visible operation in its transition
}

// startData returns the data state of a new run of e: empty (with its own
// solver session) for a symbolic fuzz run, nil otherwise.
func (m *Machine) startData(e Entry) *dataState {
	if !m.opts.Symbolic || e.Kind != EntryFuzz {
		return nil
	}
	return &dataState{sess: &session{}}
}

// choose clears the pending data choice; the goroutine's next transition
// takes the side.
func (d *dataState) choose(side int) *dataState {
	nd := *d
	nd.pending = nil
	nd.resumeVisible = d.pending != nil && d.pending.visible
	return &nd
}

// assume returns d with c (holds) or ¬c added to the path condition.
func (d *dataState) assume(c *symExpr, holds bool) *dataState {
	if !holds {
		c = c.not()
	}
	nd := *d
	nd.pc = d.pc.push(c)
	nd.resumeVisible = false
	return &nd
}

// hashInto adds the path condition and the pending choice to a state hash.
func (d *dataState) hashInto(h *hasher) {
	h.byte(0xd7)
	if d.pc != nil {
		h.u64(d.pc.h)
	}
	if d.pending != nil {
		h.int(int64(d.pending.g))
	}
}

// isSym reports whether v is symbolic or holds a symbolic value (an
// interface or struct/array value with a symbolic leaf).
func isSym(v Value) bool { return isSymDeep(v) }

// InputName is the name of fuzz parameter i (0-based, after the
// *testing.T) in State.Inputs and Options.Inputs: its Go name, or argI for
// an unnamed or blank parameter.
func InputName(i int, name string) string {
	if name == "" || name == "_" {
		return "arg" + strconv.Itoa(i)
	}
	return name
}

// fuzzInput returns the value of fuzz parameter i: the value given in
// Options.Inputs, a new symbolic input (symbolic runs, symbolic kinds), or
// the seed value v.
func (t *thread) fuzzInput(i int, name string, typ types.Type, v Value) Value {
	k := basicKindOf(typ)
	name = InputName(i, name)
	if in, ok := t.m.opts.Inputs[name]; ok {
		if x, ok := inputValue(in, k); ok {
			return x
		}
	}
	d := t.s.data
	if d == nil || !symKind(k) {
		return v
	}
	e := newSymVar(k, len(d.vars), name+"#"+strconv.Itoa(len(d.vars)))
	nd := *d
	nd.vars = append(d.vars[:len(d.vars):len(d.vars)], e)
	nd.names = append(d.names[:len(d.names):len(d.names)], name)
	nd.seeds = append(d.seeds[:len(d.seeds):len(d.seeds)], v)
	t.s.data = &nd
	return e
}

// inputValue converts a recorded input (a Go number or bool, or what JSON
// decoding gives: json.Number, float64, string) to a value of kind k.
func inputValue(x any, k types.BasicKind) (Value, bool) {
	if k == types.Bool || k == types.UntypedBool {
		b, ok := x.(bool)
		return b, ok
	}
	if !symKind(k) {
		return nil, false
	}
	var s string
	switch v := x.(type) {
	case json.Number:
		s = v.String()
	case string:
		s = v
	case float64:
		if v != math.Trunc(v) {
			return nil, false
		}
		if v < 0 {
			return intOfKind(k, uint64(int64(v))), true
		}
		return intOfKind(k, uint64(v)), true
	case bool:
		return nil, false
	default:
		return intOfKind(k, toUint64(x)), true
	}
	if i, err := strconv.ParseInt(s, 10, 64); err == nil {
		return intOfKind(k, uint64(i)), true
	}
	if u, err := strconv.ParseUint(s, 10, 64); err == nil {
		return intOfKind(k, u), true
	}
	return nil, false
}

// Inputs returns concrete values of the symbolic inputs that lead to s: a
// model of its path condition, by input name (inputs the path condition
// does not constrain keep their seed values). It is nil for a state
// without symbolic inputs. The values are Go values of the inputs' kinds
// (int, int8, ..., uint64, bool).
func (s *State) Inputs() map[string]any {
	d := s.data
	if d == nil || len(d.vars) == 0 {
		return nil
	}
	used := map[int]bool{}
	for p := d.pc; p != nil; p = p.prev {
		varsOf(p.c, used)
	}
	var es []*symExpr
	for i, v := range d.vars {
		if used[i] {
			es = append(es, v)
		}
	}
	out := map[string]any{}
	var bits []uint64
	if len(es) > 0 {
		var ok bool
		d.sess.deadline = 0 // (no transition runs: the last one's deadline may have passed)
		if bits, ok = d.sess.model(d.pc, nil, es); !ok {
			return nil
		}
	}
	j := 0
	for i, v := range d.vars {
		if used[i] {
			out[d.names[i]] = valueOf(v.k, bits[j])
			j++
		} else {
			out[d.names[i]] = d.seeds[i]
		}
	}
	return out
}

func varsOf(e *symExpr, set map[int]bool) {
	for e != nil {
		switch e.op {
		case symVar:
			set[e.v] = true
			return
		case symBin:
			varsOf(e.y, set)
		case symConst:
			return
		}
		e = e.x
	}
}

// SolverStats returns the satisfiability checks made for the run s belongs
// to (every state of one Start shares them) and their total time.
func (s *State) SolverStats() (calls int, d time.Duration) {
	if s.data == nil || s.data.sess == nil {
		return 0, 0
	}
	return s.data.sess.calls, s.data.sess.time
}

// PathCondition returns the constraints of s's path condition in Go
// syntax, oldest first (nil without symbolic inputs).
func (s *State) PathCondition() []string {
	if s.data == nil {
		return nil
	}
	var out []string
	for _, p := range s.data.pc.list() {
		out = append(out, p.c.String())
	}
	return out
}

// decide resolves the condition c for the running goroutine: side 1 if c
// holds on the path, 0 if not. With both sides feasible the goroutine
// stops before the operation (ok false, the ctl to return) and the state
// offers the data choice; the next transition of the goroutine re-executes
// the operation with the chosen side preselected (t.branch).
func (t *thread) decide(c *symExpr) (side int, k ctl, ok bool) {
	d := t.s.data
	d.sess.deadline = t.deadline
	if t.branch >= 0 {
		side, t.branch = t.branch, -1
		if d.resumeVisible {
			t.visible = true
		}
		t.s.data = d.assume(c, side == 1)
		return side, ctlNext, true
	}
	rt := d.sess.sat(d.pc, c)
	rf := d.sess.sat(d.pc, c.not())
	switch {
	case rt == smt.Sat && rf == smt.Sat:
		if t.nested > 0 {
			// inside a native's synchronous callback nothing may stop:
			// take the side a model of the path condition takes
			break
		}
		nd := *d
		nd.pending = &pendingBranch{g: t.g.id, visible: t.visible}
		t.s.data = &nd
		return 0, ctlYield, false
	case rt == smt.Sat:
		if rf != smt.Unsat { // not implied: record it
			t.s.data = d.assume(c, true)
		}
		return 1, ctlNext, true
	case rf == smt.Sat:
		if rt != smt.Unsat {
			t.s.data = d.assume(c, false)
		}
		return 0, ctlNext, true
	}
	bits, ok := d.sess.model(d.pc, nil, []*symExpr{c})
	if !ok {
		return 0, t.solverGaveUp(t.g.top, "symbolic condition the solver cannot decide ("+c.String()+")"), false
	}
	side = int(bits[0])
	t.s.data = d.assume(c, side == 1)
	return side, ctlNext, true
}

// concretize returns a concrete value for v (a symbolic value, or an
// interface or aggregate holding one) and records it in the path
// condition.
func (t *thread) concretize(v Value) (Value, bool) {
	switch x := v.(type) {
	case *symExpr:
		d := t.s.data
		d.sess.deadline = t.deadline
		bits, ok := d.sess.model(d.pc, nil, []*symExpr{x})
		if !ok {
			return nil, false
		}
		c := newSymBin(token.EQL, types.Bool, x, newSymConst(x.k, bits[0]))
		if x.k == types.Bool {
			c = x
			if bits[0] == 0 {
				c = x.not()
			}
		}
		t.s.data = d.assume(c, true)
		return valueOf(x.k, bits[0]), true
	case Iface:
		if !isSymDeep(x.V) {
			return x, true
		}
		cv, ok := t.concretize(x.V)
		return Iface{T: x.T, V: cv}, ok
	case []Value:
		if !isSymDeep(x) {
			return x, true
		}
		out := make([]Value, len(x))
		for i, c := range x {
			cv, ok := t.concretize(c)
			if !ok {
				return nil, false
			}
			out[i] = cv
		}
		return out, true
	case Tuple:
		if !isSymDeep(x) {
			return x, true
		}
		out := make(Tuple, len(x))
		for i, c := range x {
			cv, ok := t.concretize(c)
			if !ok {
				return nil, false
			}
			out[i] = cv
		}
		return out, true
	}
	return v, true
}

// solverGaveUp ends a transition whose solver check found no answer:
// cut at the deadline when it has passed (the check was interrupted, as
// a long computation is: StepWithin), else unsupported with msg.
func (t *thread) solverGaveUp(fr *frame, msg string) ctl {
	if t.deadline != 0 && time.Now().UnixNano() >= t.deadline {
		t.s.last.Op = opCut
		return ctlYield
	}
	return t.unsupported(fr, msg)
}

// concretizeCells concretizes the symbolic values in cells [from, to) of
// object id (those it has), recording them in the path condition.
func (t *thread) concretizeCells(fr *frame, id ObjID, from, to int) (ctl, bool) {
	o := t.s.heap.get(id)
	if o == nil || o.pk != nil { // (packed memory holds concrete numbers only)
		return ctlNext, true
	}
	for j := from; j < min(o.numCells(), to); j++ {
		if isSymDeep(o.cell(j)) {
			cv, ok := t.concretize(o.cell(j))
			if !ok {
				return t.solverGaveUp(fr, "symbolic value the solver cannot concretize"), false
			}
			t.s.heap.mut(id, t.s.epoch).setCell(j, cv)
			o = t.s.heap.get(id)
		}
	}
	return ctlNext, true
}

// concreteArgs concretizes the arguments of a native call: symbolic values,
// interfaces and aggregates holding them, and the cells of a short slice
// argument (the ...any of fmt and testing calls).
func (t *thread) concreteArgs(fr *frame, args []Value) ([]Value, ctl, bool) {
	var out []Value
	for i, a := range args {
		if sl, ok := a.(Slice); ok && sl.Obj != 0 && sl.Len > 0 && sl.Len <= 256 {
			// the slice and possibly more of its array: concretizing is sound
			if k, ok := t.concretizeCells(fr, sl.Obj, int(sl.Off), int(sl.Off)+256); !ok {
				return nil, k, false
			}
			continue
		}
		if !isSymDeep(a) {
			continue
		}
		cv, ok := t.concretize(a)
		if !ok {
			return nil, t.solverGaveUp(fr, "symbolic value the solver cannot concretize"), false
		}
		if out == nil {
			out = append([]Value(nil), args...)
		}
		out[i] = cv
	}
	if out == nil {
		return args, ctlNext, true
	}
	return out, ctlNext, true
}
