package vm

import (
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// This file finds, in a function's SSA, two kinds of memory that no
// access can ever race on, so that the race detector neither checks nor
// remembers their accesses (Object.readOnly):
//
//   - Variables written only before they can be shared: a local variable
//     whose every write is in the block that allocates it, before any
//     closure captures it, and that is otherwise only read (loaded directly
//     or through field and array element addresses, in its function and in
//     the closures that capture it). gc captures such a variable by value —
//     the closure holds a copy, and reading it is no memory access the race
//     detector sees — where go/ssa captures every variable by reference (an
//     Alloc the closure loads through a FreeVar). Once shared the variable
//     is never written, so none of its accesses conflicts with another.
//     (Its loads stay scheduling points under --sched shared: removing
//     them is exact too, but it changed the guided search's dives enough to
//     lose the buggy accountsubtype 20 1, found before in 30,000 states.)
//   - Channels that are never closed: a channel made by make whose value
//     only ever reaches sends, receives, selects, len and cap, directly or
//     through such variables (and direction conversions and φ-nodes). A
//     send is a read of the channel's address that races only with close
//     (the write, runtime/chan.go); a channel no close can reach needs no
//     memory of its sends. Goroutines started in a loop that send on a
//     channel of their test would otherwise each leave one remembered read
//     until something orders it before everyone: which of them a buffered
//     channel's slots order made the states of x/sync's TestTryGo (42
//     senders) too many to search at a preemption bound of 0.
//
// Both are exact: the accesses left out are exactly those that can never
// be one of a racing pair.

// capturedByValue reports whether allocation a is a variable written only
// before it can be shared.
func (m *Machine) capturedByValue(a *ssa.Alloc) bool {
	_, ok := m.byValueLoads(a)
	return ok
}

// byValueLoads returns the loads of variable a, in its function and in the
// closures that capture it, when it is written only before it can be
// shared (ok).
func (m *Machine) byValueLoads(a *ssa.Alloc) (loads []*ssa.UnOp, ok bool) {
	var stores []ssa.Instruction // writes through a's address (in a's function)
	var shares []ssa.Instruction // closures of a's function that capture it
	var walk func(v ssa.Value, own, whole bool, depth int) bool
	walk = func(v ssa.Value, own, whole bool, depth int) bool {
		refs := v.Referrers()
		if refs == nil || depth > 16 {
			return false
		}
		for _, r := range *refs {
			switch r := r.(type) {
			case *ssa.DebugRef:
			case *ssa.UnOp:
				if r.Op != token.MUL {
					return false
				}
				if whole {
					loads = append(loads, r)
				}
			case *ssa.FieldAddr:
				if !walk(r, own, false, depth+1) {
					return false
				}
			case *ssa.IndexAddr:
				if _, ok := r.X.Type().Underlying().(*types.Pointer); !ok || r.X != v || !walk(r, own, false, depth+1) {
					return false // (an array's elements, not a slice's)
				}
			case *ssa.Store:
				if r.Addr != v || r.Val == v || !own {
					return false // the address stored, or a write by a closure
				}
				stores = append(stores, r)
			case *ssa.MakeClosure:
				fn, ok := r.Fn.(*ssa.Function)
				if !ok || r.Fn == v {
					return false
				}
				for i, b := range r.Bindings {
					if b == v && (i >= len(fn.FreeVars) || !walk(fn.FreeVars[i], false, whole, depth+1)) {
						return false
					}
				}
				if own {
					shares = append(shares, r)
				}
			default:
				return false // passed, converted, sliced, compared, …
			}
		}
		return true
	}
	if a.Block() == nil || !walk(a, true, true, 0) {
		return nil, false
	}
	// every write in a's block, before every capture made in that block
	// (the other blocks run after it: a's object is new each time it runs)
	for _, s := range stores {
		if s.Block() != a.Block() {
			return nil, false
		}
	}
	if !writesBeforeShares(a.Block(), stores, shares, m.blockPositions) {
		return nil, false
	}
	return loads, true
}

// writesBeforeShares reports whether, in block b, every one of stores
// comes before every one of shares that is in b. The positions come from
// positions (a package initializer's block can hold hundreds of thousands
// of instructions and as many variables: no scan per variable).
func writesBeforeShares(b *ssa.BasicBlock, stores, shares []ssa.Instruction, positions func(*ssa.BasicBlock) map[ssa.Instruction]int) bool {
	var pos map[ssa.Instruction]int
	first := -1
	for _, c := range shares {
		if c.Block() != b {
			continue
		}
		if pos == nil {
			pos = positions(b)
		}
		if i := pos[c]; first < 0 || i < first {
			first = i
		}
	}
	if first < 0 {
		return true
	}
	for _, s := range stores {
		if pos[s] > first {
			return false
		}
	}
	return true
}

// blockPositions returns the index of each instruction of b in b.Instrs,
// computed once per block (m.fnMu held, as by the compiler).
func (m *Machine) blockPositions(b *ssa.BasicBlock) map[ssa.Instruction]int {
	if p, ok := m.blockPos[b]; ok {
		return p
	}
	p := make(map[ssa.Instruction]int, len(b.Instrs))
	for i, in := range b.Instrs {
		p[in] = i
	}
	if m.blockPos == nil {
		m.blockPos = map[*ssa.BasicBlock]map[ssa.Instruction]int{}
	}
	m.blockPos[b] = p
	return p
}

// neverClosed reports whether the channel made by mk can never be closed:
// its value reaches only channel operations other than close, directly,
// through variables written only before they are shared, and through
// unexported fields whose every load does the same (fieldNeverClosed).
// Called while compiling (m.fnMu held).
func (m *Machine) neverClosed(mk *ssa.MakeChan) bool {
	return m.chanUses(mk, map[ssa.Value]bool{})
}

// chanUses reports whether channel value v reaches only channel
// operations other than close (seen: the values being checked).
func (m *Machine) chanUses(v ssa.Value, seen map[ssa.Value]bool) bool {
	if seen[v] {
		return true
	}
	seen[v] = true
	if len(seen) > 512 {
		return false
	}
	refs := v.Referrers()
	if refs == nil {
		return false
	}
	for _, r := range *refs {
		switch r := r.(type) {
		case *ssa.DebugRef:
		case *ssa.Send:
			if r.X == v {
				return false // the channel sent on another
			}
		case *ssa.UnOp:
			if r.Op != token.ARROW {
				return false
			}
		case *ssa.BinOp:
			if r.Op != token.EQL && r.Op != token.NEQ {
				return false
			}
		case *ssa.Select:
			for _, st := range r.States {
				if st.Send == v {
					return false
				}
			}
		case *ssa.Call:
			b, ok := r.Call.Value.(*ssa.Builtin)
			if !ok || (b.Name() != "len" && b.Name() != "cap") {
				return false // close, or passed to a function
			}
		case *ssa.ChangeType, *ssa.Phi:
			if !m.chanUses(r.(ssa.Value), seen) {
				return false
			}
		case *ssa.Store:
			if r.Val != v {
				return false
			}
			switch a := r.Addr.(type) {
			case *ssa.Alloc:
				loads, ok := m.byValueLoads(a)
				if !ok {
					return false
				}
				for _, l := range loads {
					if !m.chanUses(l, seen) {
						return false
					}
				}
			case *ssa.FieldAddr:
				if !m.fieldNeverClosed(a.X.Type(), a.Field) {
					return false
				}
			default:
				return false
			}
		default:
			return false
		}
	}
	return true
}

// fieldNeverClosed reports whether no channel stored in field i of the
// struct *ptr points to is ever closed through the field: the field is
// unexported, of a named, non-generic struct type, and every load of it
// in the package that declares it (the only code that can name it) —
// of any struct field of its name there, as a conversion to a type of the
// same layout reaches it under that name — reaches only channel
// operations other than close (chanUses). Memoized
// in m.fieldOpen; a field met again while it is being decided is not.
func (m *Machine) fieldNeverClosed(ptr types.Type, i int) bool {
	p, ok := ptr.Underlying().(*types.Pointer)
	if !ok {
		return false
	}
	named, ok := types.Unalias(p.Elem()).(*types.Named)
	if !ok || named.TypeParams().Len() > 0 || named.TypeArgs().Len() > 0 {
		return false
	}
	st, ok := named.Underlying().(*types.Struct)
	if !ok || i >= st.NumFields() {
		return false
	}
	f := st.Field(i)
	if open, ok := m.fieldOpen[f]; ok {
		return open
	}
	if m.fieldOpen == nil {
		m.fieldOpen = map[*types.Var]bool{}
	}
	m.fieldOpen[f] = false // (while deciding)
	if f.Exported() || f.Pkg() == nil {
		return false
	}
	pkg := m.prog.SSA.Package(f.Pkg())
	if pkg == nil {
		return false
	}
	seen := map[ssa.Value]bool{}
	// same reports whether field j of the struct (or pointer to struct) x
	// may be the field: any struct's field of the same name, as a
	// conversion to another type of the same layout (a named or literal
	// struct type, or a generic one's instance) reaches it under its name
	same := func(x ssa.Value, j int) bool {
		t := x.Type().Underlying()
		if q, ok := t.(*types.Pointer); ok {
			t = q.Elem().Underlying()
		}
		s, ok := t.(*types.Struct)
		return !ok || j >= s.NumFields() || s.Field(j).Name() == f.Name()
	}
	ok = true
	forPackageFuncs(m.prog.SSA, pkg, func(fn *ssa.Function) {
		if len(fn.Blocks) == 0 {
			ok = false // a body not in SSA (stripped, assembly): unknown
		}
		for _, b := range fn.Blocks {
			for _, in := range b.Instrs {
				if !ok {
					return
				}
				switch x := in.(type) {
				case *ssa.FieldAddr:
					if !same(x.X, x.Field) {
						continue
					}
					for _, r := range *x.Referrers() {
						switch r := r.(type) {
						case *ssa.UnOp:
							ok = ok && r.Op == token.MUL && m.chanUses(r, seen)
						case *ssa.Store:
							ok = ok && r.Addr == x && r.Val != x // (a write: its channel is checked where it is made)
						case *ssa.DebugRef:
						default:
							ok = false
						}
					}
				case *ssa.Field:
					if same(x.X, x.Field) {
						ok = ok && m.chanUses(x, seen)
					}
				}
			}
		}
	})
	m.fieldOpen[f] = ok
	return ok
}

// forPackageFuncs calls f for every function declared in pkg (functions,
// methods, and the closures in them).
func forPackageFuncs(prog *ssa.Program, pkg *ssa.Package, f func(*ssa.Function)) {
	var visit func(fn *ssa.Function)
	visit = func(fn *ssa.Function) {
		if fn == nil {
			return
		}
		f(fn)
		for _, a := range fn.AnonFuncs {
			visit(a)
		}
	}
	for _, mem := range pkg.Members {
		switch mem := mem.(type) {
		case *ssa.Function:
			visit(mem)
		case *ssa.Type:
			if named, ok := mem.Type().(*types.Named); ok {
				for j := range named.NumMethods() {
					visit(prog.FuncValue(named.Method(j)))
				}
			}
		}
	}
}
