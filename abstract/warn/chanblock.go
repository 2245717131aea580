package warn

import (
	"fmt"
	"go/types"

	"github.com/gmc-go/gmc/slice"
	"github.com/gmc-go/gmc/vm/loc"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/buildssa"
	"golang.org/x/tools/go/ssa"
)

// ChanBlock reports channel operations that may block forever because no
// partner operation is certain to happen: a send on an unbuffered channel
// or a receive whose every partner may be skipped (it sits in a select with
// other ways out, or on a path its goroutine may return before), or that
// has no partner at all; and a range over a channel that is never closed.
// The target is the blocking operation.
var ChanBlock = &analysis.Analyzer{
	Name:     "chanblock",
	Doc:      "report channel operations that may block forever for lack of a partner\n\nPartners are found by following the channel from its make through variables, closures, call arguments and struct fields.",
	Requires: []*analysis.Analyzer{buildssa.Analyzer},
	Run: func(pass *analysis.Pass) (any, error) {
		report(pass, CheckChanBlock(passModel(pass)))
		return nil, nil
	},
}

type chanOpKind uint8

const (
	opSend chanOpKind = iota
	opRecv
	opClose
)

type chanOp struct {
	kind     chanOpKind
	instr    ssa.Instruction
	inSelect bool // a case of a select with another case or a default
	commaOk  bool // v, ok := <-ch (as range loops do)
}

// CheckChanBlock follows each channel made in the model to its operations.
func CheckChanBlock(m *Model) []Warning {
	fieldLoads := map[slice.Class][]ssa.Value{}
	for _, fn := range m.Funcs {
		for _, b := range fn.Blocks {
			for _, in := range b.Instrs {
				if u, ok := in.(*ssa.UnOp); ok && u.Op.String() == "*" {
					if c := slice.AddrClass(u.X); c.Kind == slice.Field || c.Kind == slice.Global {
						fieldLoads[c] = append(fieldLoads[c], u)
					}
				}
			}
		}
	}
	var out []Warning
	for _, fn := range m.Funcs {
		for _, b := range fn.Blocks {
			for _, in := range b.Instrs {
				mk, ok := in.(*ssa.MakeChan)
				if !ok {
					continue
				}
				ops := m.chanOps(mk, fieldLoads)
				out = append(out, m.judge(mk, ops)...)
			}
		}
	}
	return out
}

// chanOps collects the operations on the channel made by mk.
func (m *Model) chanOps(mk *ssa.MakeChan, fieldLoads map[slice.Class][]ssa.Value) []chanOp {
	var ops []chanOp
	seen := map[ssa.Value]bool{}
	work := []ssa.Value{mk}
	push := func(v ssa.Value) {
		if v != nil && !seen[v] {
			seen[v] = true
			work = append(work, v)
		}
	}
	seen[mk] = true
	for len(work) > 0 && len(seen) < 1000 {
		v := work[len(work)-1]
		work = work[:len(work)-1]
		refs := v.Referrers()
		if refs == nil {
			continue
		}
		for _, r := range *refs {
			switch r := r.(type) {
			case *ssa.Send:
				if r.Chan == v {
					ops = append(ops, chanOp{kind: opSend, instr: r})
				}
			case *ssa.UnOp:
				switch r.Op.String() {
				case "<-":
					ops = append(ops, chanOp{kind: opRecv, instr: r, commaOk: r.CommaOk})
				case "*": // v is a variable holding the channel
					push(r)
				}
			case *ssa.Select:
				alt := len(r.States) > 1 || !r.Blocking
				for _, st := range r.States {
					if st.Chan == v {
						k := opRecv
						if st.Dir == types.SendOnly {
							k = opSend
						}
						ops = append(ops, chanOp{kind: k, instr: r, inSelect: alt})
					}
				}
			case *ssa.MakeClosure:
				for i, b := range r.Bindings {
					if b == v {
						push(r.Fn.(*ssa.Function).FreeVars[i])
					}
				}
			case ssa.CallInstruction:
				com := r.Common()
				if b, ok := com.Value.(*ssa.Builtin); ok {
					if b.Name() == "close" {
						ops = append(ops, chanOp{kind: opClose, instr: r})
					}
					continue
				}
				for i, a := range com.Args {
					if a != v {
						continue
					}
					for _, g := range m.Callees(r) {
						j := i
						if com.IsInvoke() {
							j = i + 1
						}
						if j < len(g.Params) {
							push(g.Params[j])
						}
					}
				}
			case *ssa.Store:
				if r.Val == v {
					for _, l := range fieldLoads[slice.AddrClass(r.Addr)] {
						push(l)
					}
					switch a := r.Addr.(type) {
					case *ssa.Alloc, *ssa.FreeVar, *ssa.Parameter:
						push(a)
					}
				}
			case *ssa.Phi, *ssa.ChangeType, *ssa.MakeInterface, *ssa.TypeAssert:
				push(r.(ssa.Value))
			}
		}
	}
	return ops
}

// judge applies the rules to the operations of one channel.
func (m *Model) judge(mk *ssa.MakeChan, ops []chanOp) []Warning {
	buffered := true
	if c, ok := mk.Size.(*ssa.Const); ok && c.Int64() == 0 {
		buffered = false
	}
	var sends, recvs, closes []chanOp
	for _, o := range ops {
		switch o.kind {
		case opSend:
			sends = append(sends, o)
		case opRecv:
			recvs = append(recvs, o)
		case opClose:
			closes = append(closes, o)
		}
	}
	fset := mk.Parent().Prog.Fset
	var out []Warning
	warn := func(o chanOp, msg string) {
		l := loc.Of(o.instr)
		out = append(out, Warning{Check: "chanblock", Pos: o.instr.Pos(), Msg: msg, Targets: []loc.Loc{l}})
	}
	made := loc.Of(mk).Position(fset)
	for _, o := range sends {
		if buffered || o.inSelect {
			continue
		}
		switch {
		case len(recvs) == 0:
			warn(o, fmt.Sprintf("send may block forever: no receive on the channel made at %s", made))
		case m.allSkippable(recvs):
			warn(o, fmt.Sprintf("send may block forever: every receive on the channel made at %s may be skipped (%s)", made, loc.Of(recvs[0].instr).Position(fset)))
		}
	}
	for _, o := range recvs {
		if o.inSelect {
			continue
		}
		partners := append(append([]chanOp(nil), sends...), closes...)
		switch {
		case o.commaOk && len(closes) == 0 && inLoop(o.instr.Block()):
			warn(o, fmt.Sprintf("receive may block forever: the channel made at %s is never closed", made))
		case len(partners) == 0:
			warn(o, fmt.Sprintf("receive may block forever: no send or close on the channel made at %s", made))
		case m.allSkippable(partners):
			warn(o, fmt.Sprintf("receive may block forever: every send or close on the channel made at %s may be skipped", made))
		}
	}
	return out
}

// allSkippable reports whether every operation may not happen: it is in a
// select with another way out, or its goroutine may return before it (its
// block does not post-dominate the function's entry).
func (m *Model) allSkippable(ops []chanOp) bool {
	for _, o := range ops {
		if !o.inSelect && !m.mayBeSkipped(o.instr) {
			return false
		}
	}
	return true
}

func (m *Model) mayBeSkipped(in ssa.Instruction) bool {
	return !m.facts(in.Parent()).PostDominates(in.Block().Index, 0)
}
