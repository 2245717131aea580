package guide

import (
	"context"
	"errors"
	"go/token"
	"go/types"
	"slices"
	"strings"
	"time"

	"github.com/gmc-go/gmc/slice"
	"github.com/gmc-go/gmc/vm"
	"github.com/gmc-go/gmc/vm/load"
	"golang.org/x/tools/go/ssa"
)

// This file chooses the sources of gmc confirm's payload abstraction
// (vm.Options.Payload, vm/payload.go): the binary operations of the code
// under test whose integer results may be data that no branch, index or
// synchronization reads — an element appended to a list, a statistic, a
// modification count nobody compares. The choice is a guess; the machine
// checks it (a use of an abstracted value voids the search), and
// Confirm drops each source whose value was used and searches again.

// payloadSources returns the candidate sources of entry e: arithmetic
// with an int-sized integer result in the code under test reachable from
// e, whose result is only moved (stored, passed, returned, boxed, sent)
// by the instructions that use it in its own function, and stored in no
// struct field whose loaded value an instruction inspects (a field-based
// guess at the uses through memory, which spares most searches voided by
// a modification count or a cursor).
func payloadSources(prog *load.Program, sp *slice.Program, e vm.Entry) []ssa.Instruction {
	roots := []*ssa.Function{e.Fn}
	var scope []*ssa.Function
	for f := range sp.ReachableFrom(roots) {
		if p := f.Package(); p != nil && len(f.Blocks) > 0 && prog.UnderTest(p.Pkg.Path()) {
			scope = append(scope, f)
		}
	}
	slices.SortFunc(scope, func(a, b *ssa.Function) int { return strings.Compare(a.String(), b.String()) })
	// the struct fields whose loaded value some instruction inspects: a
	// source stored in one would be used (arithmetic on it aside, which
	// a source's payload survives)
	mv := mover{inspected: map[fieldKey]bool{}}
	for _, f := range scope {
		for _, b := range f.Blocks {
			for _, in := range b.Instrs {
				if u, ok := in.(*ssa.UnOp); ok && u.Op == token.MUL {
					if k, ok := fieldOf(u.X); ok && !mv.onlyMoved(u, map[ssa.Value]bool{}, true) {
						mv.inspected[k] = true
					}
				}
			}
		}
	}
	var out []ssa.Instruction
	for _, f := range scope {
		for _, b := range f.Blocks {
			for _, in := range b.Instrs {
				if bin, ok := in.(*ssa.BinOp); ok && arithmetic(bin) && mv.onlyMoved(bin, map[ssa.Value]bool{}, false) {
					out = append(out, bin)
				}
			}
		}
	}
	return out
}

// fieldKey names a struct field: the struct type and the field's index.
type fieldKey struct {
	st string
	i  int
}

// fieldOf returns the field an address is of (a FieldAddr).
func fieldOf(addr ssa.Value) (fieldKey, bool) {
	fa, ok := addr.(*ssa.FieldAddr)
	if !ok {
		return fieldKey{}, false
	}
	return fieldKey{types.TypeString(fa.X.Type().Underlying().(*types.Pointer).Elem(), nil), fa.Field}, true
}

// mover tells which values are only moved.
type mover struct {
	inspected map[fieldKey]bool // fields whose loads are inspected
}

// arithmetic reports a binary operation whose result is an integer of at
// least 32 bits other than a rune (bytes and runes reach the natives of
// strings).
func arithmetic(b *ssa.BinOp) bool {
	switch b.Op {
	case token.ADD, token.SUB, token.MUL, token.QUO, token.REM, token.AND, token.OR, token.XOR, token.AND_NOT, token.SHL, token.SHR:
	default:
		return false
	}
	bt, ok := b.Type().Underlying().(*types.Basic)
	if !ok {
		return false
	}
	switch bt.Kind() {
	case types.Int, types.Int64, types.Uint, types.Uint64, types.Uint32:
		return true
	}
	return false
}

// onlyMoved reports whether every use of v in its function (through
// φ-nodes) only moves it, into no field whose loads are inspected; with
// arith, arithmetic on v counts as a move.
func (mv mover) onlyMoved(v ssa.Value, seen map[ssa.Value]bool, arith bool) bool {
	if seen[v] {
		return true
	}
	seen[v] = true
	rs := v.Referrers()
	if rs == nil {
		return false
	}
	for _, r := range *rs {
		if _, ok := r.(*ssa.DebugRef); ok {
			continue
		}
		if phi, ok := r.(*ssa.Phi); ok {
			if !mv.onlyMoved(phi, seen, arith) {
				return false
			}
			continue
		}
		if st, ok := r.(*ssa.Store); ok && st.Val == v {
			if k, ok := fieldOf(st.Addr); ok && mv.inspected[k] {
				return false
			}
		}
		if b, ok := r.(*ssa.BinOp); ok && arith && arithmetic(b) {
			if !mv.onlyMoved(b, seen, arith) {
				return false
			}
			continue
		}
		if c, ok := r.(ssa.CallInstruction); ok {
			if callee := c.Common().StaticCallee(); callee != nil && len(callee.Blocks) == 0 {
				return false // a native or an external function looks at it
			}
		}
		for _, op := range vm.Inspected(r) {
			if op == v {
				return false
			}
		}
	}
	return true
}

// checkPayload runs check under the payload abstraction of srcs, within
// limit: a search in which an abstracted value was used is void, and the
// next one runs without the sources used (without any, when a use could
// not be attributed). A warning shown under the abstraction is searched
// again without it, so that its counterexample is an execution of the
// program as it is. It returns the last search's result, the sources
// no execution used (kept) and how many were dropped.
func checkPayload(ctx context.Context, fset *token.FileSet, w *Warning, srcs []ssa.Instruction, limit time.Duration,
	check func(context.Context, time.Duration, *vm.Payload) (*CheckResult, error)) (res *CheckResult, kept []ssa.Instruction, dropped int, err error) {
	deadline := time.Now().Add(limit)
	kept = srcs
	for {
		if len(srcs) == 0 {
			res, err := check(ctx, time.Until(deadline), nil)
			return res, kept, dropped, err
		}
		cctx, cancel := context.WithCancel(ctx)
		p := &vm.Payload{Sources: srcs, OnViolation: cancel}
		res, err := check(cctx, time.Until(deadline), p)
		cancel()
		bad, unknown := p.Violations()
		if !unknown && len(bad) == 0 {
			if err == nil && res.Verdict == VerdictError {
				if ve := res.Best.Result.Final.Err(); ve != nil && shows(fset, w, ve) {
					kept, srcs = srcs, nil // shown: find it again on the program as it is
					if time.Until(deadline) < time.Second/2 {
						deadline = time.Now().Add(time.Second / 2)
					}
					continue
				}
			}
			return res, srcs, dropped, err
		}
		if unknown {
			dropped += len(srcs)
			srcs = nil
		} else {
			drop := map[int]bool{}
			for _, b := range bad {
				drop[b] = true
			}
			var rest []ssa.Instruction
			for i, s := range srcs {
				if !drop[i] {
					rest = append(rest, s)
				}
			}
			dropped += len(srcs) - len(rest)
			srcs = rest
		}
		kept = srcs
		if time.Until(deadline) <= 0 {
			return nil, nil, dropped, errors.New("payload abstraction: out of time after a value it abstracted was used")
		}
	}
}
