package slice

import (
	"go/types"
	"sort"
	"sync"

	"github.com/gmc-go/gmc/vm/loc"
	"golang.org/x/tools/go/ssa"
)

// ClassKind is the shape of a memory class.
type ClassKind uint8

const (
	NoClass ClassKind = iota
	Global            // one package-level variable: Key is "pkg.name"
	Field             // one field of one struct type: Key is "T.f"
	Elem              // elements of slices/arrays of one element type: Key is the type
	MapElem           // entries of maps of one map type: Key is the map type
	Local             // one non-escaping local variable (an Alloc): Key names it
	Deref             // *p for a pointer p of unknown origin: Key is the pointee type
)

// Class is a memory class: every location a load or store may touch is in
// exactly one class; two classes may alias per MayAlias.
type Class struct {
	Kind ClassKind
	Key  string
	Type string // the type of the values stored in the class
}

func (c Class) String() string {
	switch c.Kind {
	case Global:
		return "global " + c.Key
	case Field:
		return "field " + c.Key
	case Elem:
		return "elem " + c.Key
	case MapElem:
		return "map " + c.Key
	case Local:
		return "local " + c.Key
	case Deref:
		return "*" + c.Key
	}
	return "?"
}

// MayAlias is the seed's "maybe an alias": same class, or a dereference of a
// pointer to T against any (non-local) class holding values of type T.
func MayAlias(a, b Class) bool {
	if a.Kind == NoClass || b.Kind == NoClass {
		return false
	}
	if a == b {
		return true
	}
	if a.Kind == Local || b.Kind == Local {
		return false
	}
	if a.Kind == Deref || b.Kind == Deref {
		return a.Type == b.Type
	}
	return false
}

func typeString(t types.Type) string { return types.TypeString(t, nil) }

func deref(t types.Type) types.Type {
	if p, ok := t.Underlying().(*types.Pointer); ok {
		return p.Elem()
	}
	return t
}

// AddrClass returns the memory class of the location an address value
// denotes.
func AddrClass(addr ssa.Value) Class {
	elem := typeString(deref(addr.Type()))
	switch a := addr.(type) {
	case *ssa.Global:
		return Class{Global, a.Pkg.Pkg.Path() + "." + a.Name(), elem}
	case *ssa.FieldAddr:
		st := deref(a.X.Type())
		f := st.Underlying().(*types.Struct).Field(a.Field)
		return Class{Field, typeString(st) + "." + f.Name(), elem}
	case *ssa.IndexAddr:
		return Class{Elem, elem, elem}
	case *ssa.Alloc:
		if !a.Heap {
			return Class{Local, a.Parent().String() + "." + a.Name(), elem}
		}
	}
	return Class{Deref, elem, elem}
}

// Access is one memory access: a load or a store of a class.
type Access struct {
	Loc   loc.Loc
	Class Class
	Write bool
}

// Accesses returns the memory accesses of one instruction (usually zero or
// one).
func Accesses(in ssa.Instruction) []Access {
	return accessesAt(in, func() loc.Loc { return loc.Of(in) })
}

// accessesAt is Accesses with the instruction's location computed by l
// (loc.Of is linear in the block's length).
func accessesAt(in ssa.Instruction, l func() loc.Loc) []Access {
	switch in := in.(type) {
	case *ssa.UnOp:
		if in.Op.String() == "*" {
			return []Access{{l(), AddrClass(in.X), false}}
		}
	case *ssa.Store:
		return []Access{{l(), AddrClass(in.Addr), true}}
	case *ssa.Lookup:
		if _, ok := in.X.Type().Underlying().(*types.Map); ok {
			t := typeString(in.X.Type())
			return []Access{{l(), Class{MapElem, t, t}, false}}
		}
	case *ssa.MapUpdate:
		t := typeString(in.Map.Type())
		return []Access{{l(), Class{MapElem, t, t}, true}}
	case *ssa.Call:
		if b, ok := in.Call.Value.(*ssa.Builtin); ok && len(in.Call.Args) > 0 {
			switch b.Name() {
			case "delete", "clear":
				if _, ok := in.Call.Args[0].Type().Underlying().(*types.Map); ok {
					t := typeString(in.Call.Args[0].Type())
					return []Access{{l(), Class{MapElem, t, t}, true}}
				}
				fallthrough
			case "copy":
				if s, ok := in.Call.Args[0].Type().Underlying().(*types.Slice); ok {
					t := typeString(s.Elem())
					return []Access{{l(), Class{Elem, t, t}, true}}
				}
			}
		}
	}
	return nil
}

// memIndex holds every store of the program by class.
type memIndex struct {
	byClass map[Class][]loc.Loc
	derefs  map[string][]Class // value type -> classes holding it
}

// memory returns p's memory index: the one its forks share while no
// target opened a package (built once: scanning every function took
// 0.25 s for each test planned in maypok86/otter/v2), else its own.
func (p *Program) memory() *memIndex {
	if p.mem != nil {
		return p.mem
	}
	if len(p.open) == 0 && p.closed != nil {
		p.closed.once.Do(func() { p.closed.m = p.buildMemory() })
		p.mem = p.closed.m
		return p.mem
	}
	p.mem = p.buildMemory()
	return p.mem
}

// closedMem is the memory index of a program whose standard library is all
// closed (Library), shared by the forks.
type closedMem struct {
	once sync.Once
	m    *memIndex
}

// buildMemory indexes the stores of the functions outside the library.
func (p *Program) buildMemory() *memIndex {
	m := &memIndex{byClass: map[Class][]loc.Loc{}, derefs: map[string][]Class{}}
	for fn := range p.allFuncs() {
		if p.Library(fn) {
			continue // its stores happen at its call sites (library.go)
		}
		for _, b := range fn.Blocks {
			for i, in := range b.Instrs {
				switch in.(type) {
				case *ssa.Store, *ssa.MapUpdate, *ssa.Call:
				default:
					continue
				}
				at := func() loc.Loc { return loc.Loc{Fn: fn, Block: b.Index, Index: i} }
				for _, a := range accessesAt(in, at) {
					if a.Write {
						if _, ok := m.byClass[a.Class]; !ok {
							m.derefs[a.Class.Type] = append(m.derefs[a.Class.Type], a.Class)
						}
						m.byClass[a.Class] = append(m.byClass[a.Class], a.Loc)
					}
				}
			}
		}
	}
	for _, ls := range m.byClass {
		SortLocs(ls)
	}
	for _, cs := range m.derefs {
		sort.Slice(cs, func(i, j int) bool { return cs[i].String() < cs[j].String() })
	}
	return m
}

// MayDefine returns every store in the program that may write the class c,
// regardless of order or goroutine (for refinement, Fig. 2.6 line 2).
func (p *Program) MayDefine(c Class) []loc.Loc {
	if ls, ok := p.defines[c]; ok {
		return ls
	}
	m := p.memory()
	var out []loc.Loc
	if c.Kind == Deref {
		for _, d := range m.derefs[c.Type] {
			if MayAlias(c, d) {
				out = append(out, m.byClass[d]...)
			}
		}
	} else {
		out = append(out, m.byClass[c]...)
		for _, d := range m.derefs[c.Type] {
			if d != c && MayAlias(c, d) {
				out = append(out, m.byClass[d]...)
			}
		}
	}
	SortLocs(out)
	p.defines[c] = out
	return out
}

// ReachingStores returns the stores that may define the memory a load reads
// in a sequential execution (reaches of the main seed, Def. 8, with no kills
// since aliasing is only "maybe").
func (p *Program) ReachingStores(load loc.Loc, c Class) []loc.Loc {
	return p.ReachingStoresN(load, c, -1)
}

// ReachingStoresN is ReachingStores with at most n (n ≥ 0) stores from
// other functions; the stores of the load's own function come first, then
// the others in Less order.
func (p *Program) ReachingStoresN(load loc.Loc, c Class, n int) []loc.Loc {
	byFn := p.definesByFn(c)
	var out []loc.Loc
	if f := p.funcInfo(load.Fn); f != nil {
		for _, s := range byFn[load.Fn] {
			if f.Path(s, load) {
				out = append(out, s)
			}
		}
	}
	k := crossKey{c, load.Fn}
	cross, ok := p.cross[k]
	if !ok {
		for _, s := range p.MayDefine(c) {
			if s.Fn != load.Fn && p.SeqReaches(s.Fn, load.Fn) {
				cross = append(cross, s)
			}
		}
		p.cross[k] = cross
	}
	if n >= 0 && n < len(cross) {
		cross = cross[:n]
	}
	return append(out, cross...)
}

type crossKey struct {
	c  Class
	fn *ssa.Function
}

// definesByFn groups MayDefine(c) by function.
func (p *Program) definesByFn(c Class) map[*ssa.Function][]loc.Loc {
	if m, ok := p.defByFn[c]; ok {
		return m
	}
	m := map[*ssa.Function][]loc.Loc{}
	for _, s := range p.MayDefine(c) {
		m[s.Fn] = append(m[s.Fn], s)
	}
	p.defByFn[c] = m
	return m
}
