package warn

import (
	"fmt"
	"go/types"
	"strings"

	"github.com/gmc-go/gmc/abstract"
	"github.com/gmc-go/gmc/vm/loc"
	"golang.org/x/tools/go/ssa"
)

// acquisition is a lock acquired at a location.
type acquisition struct {
	id   string // must-identity of the mutex (see lockIdent)
	key  string // may-alias name of the mutex (abstract.LockKey)
	at   loc.Loc
	read bool // RLock
}

// lockState is the may-held lock set before an instruction, and the locks
// whose release is deferred on some path.
type lockState struct {
	held     map[string]acquisition
	deferred map[string]bool // by id and by key
}

func (s lockState) clone() lockState {
	n := lockState{held: make(map[string]acquisition, len(s.held)), deferred: make(map[string]bool, len(s.deferred))}
	for k, v := range s.held {
		n.held[k] = v
	}
	for k := range s.deferred {
		n.deferred[k] = true
	}
	return n
}

// join adds o into s and reports whether s grew.
func (s lockState) join(o lockState) bool {
	grew := false
	for k, v := range o.held {
		if _, ok := s.held[k]; !ok {
			s.held[k] = v
			grew = true
		}
	}
	for k := range o.deferred {
		if !s.deferred[k] {
			s.deferred[k] = true
			grew = true
		}
	}
	return grew
}

// lockIdent names the mutex a pointer denotes when two operations certainly
// use the same mutex: the same global, local, parameter or SSA value, through
// the same field path; free variables are followed to their bindings.
func lockIdent(v ssa.Value) string {
	for i := 0; i < 16; i++ {
		fv, ok := v.(*ssa.FreeVar)
		if !ok {
			break
		}
		b := bindingOf(fv)
		if b == nil {
			break
		}
		v = b
	}
	switch v := v.(type) {
	case *ssa.FieldAddr:
		return lockIdent(v.X) + "." + fieldName(v)
	case *ssa.Global:
		return "g:" + v.Pkg.Pkg.Path() + "." + v.Name()
	case *ssa.Parameter:
		for i, p := range v.Parent().Params {
			if p == v {
				return fmt.Sprintf("p:%s#%d", v.Parent(), i)
			}
		}
	case *ssa.UnOp:
		if v.Op.String() == "*" {
			return "*" + lockIdent(v.X)
		}
	}
	if fn := valueParent(v); fn != nil {
		return fmt.Sprintf("v:%s.%s", fn, v.Name())
	}
	return "v:" + v.Name()
}

func valueParent(v ssa.Value) *ssa.Function {
	if in, ok := v.(ssa.Instruction); ok && in.Block() != nil {
		return in.Parent()
	}
	return nil
}

func fieldName(fa *ssa.FieldAddr) string {
	if p, ok := fa.X.Type().Underlying().(*types.Pointer); ok {
		if st, ok := p.Elem().Underlying().(*types.Struct); ok {
			return st.Field(fa.Field).Name()
		}
	}
	return fmt.Sprint(fa.Field)
}

func bindingOf(fv *ssa.FreeVar) ssa.Value {
	fn := fv.Parent()
	par := fn.Parent()
	if par == nil {
		return nil
	}
	idx := -1
	for i, f := range fn.FreeVars {
		if f == fv {
			idx = i
		}
	}
	var out ssa.Value
	for _, b := range par.Blocks {
		for _, in := range b.Instrs {
			if mc, ok := in.(*ssa.MakeClosure); ok && mc.Fn == fn && idx >= 0 {
				if out != nil && out != mc.Bindings[idx] {
					return nil
				}
				out = mc.Bindings[idx]
			}
		}
	}
	return out
}

// transfer applies one instruction to the lock state.
func transfer(in ssa.Instruction, s lockState) {
	k, mu := abstract.LockOp(in)
	if k == abstract.NotLock {
		return
	}
	id, key := lockIdent(mu), abstract.LockKey(mu)
	switch in.(type) {
	case *ssa.Defer:
		if k.Releases() {
			s.deferred[id] = true
			s.deferred[key] = true
		}
	case *ssa.Call:
		if k.Acquires() {
			s.held[id] = acquisition{id: id, key: key, at: loc.Of(in), read: k == abstract.RLock}
		} else if _, ok := s.held[id]; ok {
			delete(s.held, id)
		} else {
			for h, a := range s.held {
				if a.key == key {
					delete(s.held, h)
				}
			}
		}
	}
}

// walkHeld runs the may-held analysis of fn to a fixpoint and calls visit
// with the state before each instruction, in block order.
func walkHeld(fn *ssa.Function, visit func(in ssa.Instruction, s lockState)) {
	n := len(fn.Blocks)
	in := make([]lockState, n)
	for i := range in {
		in[i] = lockState{held: map[string]acquisition{}, deferred: map[string]bool{}}
	}
	// Every block is processed once; a block is processed again when its
	// entry state grows (states only grow, so this terminates).
	work := make([]int, n)
	queued := make([]bool, n)
	for i := range work {
		work[i] = i
		queued[i] = true
	}
	for len(work) > 0 {
		b := work[0]
		work = work[1:]
		queued[b] = false
		s := in[b].clone()
		for _, ins := range fn.Blocks[b].Instrs {
			transfer(ins, s)
		}
		for _, succ := range fn.Blocks[b].Succs {
			if in[succ.Index].join(s) && !queued[succ.Index] {
				queued[succ.Index] = true
				work = append(work, succ.Index)
			}
		}
	}
	for _, b := range fn.Blocks {
		s := in[b.Index].clone()
		for _, ins := range b.Instrs {
			visit(ins, s)
			transfer(ins, s)
		}
	}
}

// acquisitions returns the locks fn may acquire, itself or through the
// calls it makes (not go statements), with parameter-based identities.
func (m *Model) acquisitions(fn *ssa.Function) []acquisition {
	if a, ok := m.summary[fn]; ok {
		return a
	}
	m.summary[fn] = nil // recursion: nothing more
	var out []acquisition
	seen := map[string]bool{}
	for _, b := range fn.Blocks {
		for _, in := range b.Instrs {
			if k, mu := abstract.LockOp(in); k.Acquires() {
				if _, ok := in.(*ssa.Call); ok {
					a := acquisition{id: lockIdent(mu), key: abstract.LockKey(mu), at: loc.Of(in), read: k == abstract.RLock}
					if !seen[a.id] {
						seen[a.id] = true
						out = append(out, a)
					}
				}
				continue
			}
			c, ok := in.(*ssa.Call)
			if !ok {
				continue
			}
			for _, g := range m.Callees(c) {
				if !m.inFuncs[g] {
					continue
				}
				for _, a := range m.acquisitions(g) {
					a.id = translate(a.id, g, c.Common().Args)
					if !seen[a.id] {
						seen[a.id] = true
						out = append(out, a)
					}
				}
			}
		}
	}
	m.summary[fn] = out
	return out
}

// translate rewrites an identity based on a parameter of callee into one
// based on the argument passed at the call.
func translate(id string, callee *ssa.Function, args []ssa.Value) string {
	prefix := fmt.Sprintf("p:%s#", callee)
	if !strings.HasPrefix(id, prefix) {
		return id
	}
	rest := id[len(prefix):]
	var i int
	var tail string
	if _, err := fmt.Sscanf(rest, "%d", &i); err != nil {
		return id
	}
	tail = strings.TrimLeft(rest, "0123456789")
	if i < len(args) {
		return lockIdent(args[i]) + tail
	}
	return id
}
