package vm

import (
	"go/types"
	"sync"

	"golang.org/x/tools/go/ssa"
	"golang.org/x/tools/go/types/typeutil"
)

// RType is the VM's runtime type descriptor: one per Go type up to
// types.Identical, so two RTypes are the same type iff the pointers are equal.
// It holds the flattened memory layout (cells) used for values of the type.
type RType struct {
	ID   int
	T    types.Type
	Size int  // number of cells a value occupies in memory
	Agg  bool // struct or array: the value is a []Value of Size cells

	Fields []int  // struct: cell offset of each field
	Elem   *RType // array, slice, pointer, chan, map element type
	Key    *RType // map key type
	Len    int    // array length
	// zero is the zero value, for aggregates the shared zero cells, made
	// on first use (Zero): the runtime's own types hold arrays of
	// millions of cells that no interpreted program allocates.
	zero     Value
	zeroOnce sync.Once
	fieldTs  []*RType // struct: the type of each field
	blank    []bool   // aggregates with blank (_) fields: cells ignored by ==
	reg      *typeRegistry
	methods  sync.Map // *types.Func -> *ssa.Function (dynamic dispatch cache)
	// view is a struct's layout as memory (unsafeview_struct.go), made
	// on first use
	view     *structView
	viewOnce sync.Once
}

// typeRegistry interns RTypes. It is shared by all states of a Machine and
// safe for concurrent use.
type typeRegistry struct {
	mu      sync.Mutex
	m       typeutil.Map
	all     []*RType
	prog    *ssa.Program
	msets   typeutil.MethodSetCache
	machine *Machine
	// pending are reference types (pointer, slice, chan, map) whose
	// element types are resolved after the type that reached them is
	// laid out: resolving them at once could reach, through a pointer
	// cycle, a struct that is still being laid out and embed it with a
	// wrong size (testing.F → common → []*T → T{common}).
	pending []*RType
}

func newTypeRegistry(prog *ssa.Program) *typeRegistry {
	return &typeRegistry{prog: prog}
}

// get returns the RType for t, creating it (and its layout) on first use.
func (r *typeRegistry) get(t types.Type) *RType {
	r.mu.Lock()
	defer r.mu.Unlock()
	rt := r.getLocked(t)
	for len(r.pending) > 0 {
		p := r.pending[len(r.pending)-1]
		r.pending = r.pending[:len(r.pending)-1]
		switch u := p.T.Underlying().(type) {
		case *types.Slice:
			p.Elem = r.getLocked(u.Elem())
		case *types.Pointer:
			p.Elem = r.getLocked(u.Elem())
		case *types.Chan:
			p.Elem = r.getLocked(u.Elem())
		case *types.Map:
			p.Key = r.getLocked(u.Key())
			p.Elem = r.getLocked(u.Elem())
		}
	}
	return rt
}

func (r *typeRegistry) getLocked(t types.Type) *RType {
	if rt, ok := r.m.At(t).(*RType); ok {
		return rt
	}
	rt := &RType{ID: len(r.all) + 1, T: t, reg: r}
	r.m.Set(t, rt)
	r.all = append(r.all, rt)
	switch u := t.Underlying().(type) {
	case *types.Struct:
		rt.Agg = true
		off := 0
		var blank []bool
		hasBlank := false
		for i := 0; i < u.NumFields(); i++ {
			ft := r.getLocked(u.Field(i).Type())
			rt.Fields = append(rt.Fields, off)
			rt.fieldTs = append(rt.fieldTs, ft)
			off += ft.Size
			isBlank := u.Field(i).Name() == "_"
			for c := 0; c < ft.Size; c++ {
				blank = append(blank, isBlank || (ft.blank != nil && ft.blank[c]))
			}
			hasBlank = hasBlank || isBlank || ft.blank != nil
		}
		rt.Size = off
		if hasBlank {
			rt.blank = blank
		}
	case *types.Array:
		rt.Agg = true
		rt.Elem = r.getLocked(u.Elem())
		rt.Len = int(u.Len())
		rt.Size = rt.Len * rt.Elem.Size
		if rt.Elem.blank != nil {
			for i := 0; i < rt.Len; i++ {
				rt.blank = append(rt.blank, rt.Elem.blank...)
			}
		}
	case *types.Slice, *types.Pointer, *types.Chan, *types.Map:
		rt.Size = 1
		r.pending = append(r.pending, rt) // Elem (and Key) resolved by get
	default:
		rt.Size = 1
	}
	return rt
}

func (rt *RType) makeZero() Value {
	if !rt.Agg {
		return scalarZero(rt.T)
	}
	cells := make([]Value, 0, rt.Size)
	add := func(ft *RType) {
		if ft.Agg {
			cells = append(cells, ft.Zero().([]Value)...)
		} else {
			cells = append(cells, ft.Zero())
		}
	}
	if _, array := rt.T.Underlying().(*types.Array); array {
		for i := 0; i < rt.Len; i++ {
			add(rt.Elem)
		}
	} else {
		for _, ft := range rt.fieldTs {
			add(ft)
		}
	}
	return cells
}

// Zero returns the zero value of the type (shared; never mutate it).
func (rt *RType) Zero() Value {
	rt.zeroOnce.Do(func() { rt.zero = rt.makeZero() })
	return rt.zero
}

// String returns the type as Go prints it with %T.
func (rt *RType) String() string {
	return types.TypeString(rt.T, func(p *types.Package) string { return p.Name() })
}

func scalarZero(t types.Type) Value {
	switch u := t.Underlying().(type) {
	case *types.Basic:
		return basicZero(u.Kind())
	case *types.Pointer:
		return Pointer{}
	case *types.Slice:
		return Slice{}
	case *types.Map:
		return Map{}
	case *types.Chan:
		return Chan{}
	case *types.Signature:
		return (*Closure)(nil)
	case *types.Interface:
		return Iface{}
	case *types.Tuple:
		tup := make(Tuple, u.Len())
		for i := range tup {
			tup[i] = scalarZero(u.At(i).Type())
		}
		return tup
	}
	return nil
}

func basicZero(k types.BasicKind) Value {
	switch k {
	case types.Bool, types.UntypedBool:
		return false
	case types.Int, types.UntypedInt:
		return int(0)
	case types.Int8:
		return int8(0)
	case types.Int16:
		return int16(0)
	case types.Int32, types.UntypedRune:
		return int32(0)
	case types.Int64:
		return int64(0)
	case types.Uint:
		return uint(0)
	case types.Uint8:
		return uint8(0)
	case types.Uint16:
		return uint16(0)
	case types.Uint32:
		return uint32(0)
	case types.Uint64:
		return uint64(0)
	case types.Uintptr:
		return uintptr(0)
	case types.Float32:
		return float32(0)
	case types.Float64, types.UntypedFloat:
		return float64(0)
	case types.Complex64:
		return complex64(0)
	case types.Complex128, types.UntypedComplex:
		return complex128(0)
	case types.String, types.UntypedString:
		return ""
	case types.UnsafePointer:
		return Pointer{}
	case types.UntypedNil:
		return nil
	}
	return nil
}

// method returns the concrete method of rt implementing m (nil if none).
func (rt *RType) method(m *types.Func) *ssa.Function {
	if f, ok := rt.methods.Load(m); ok {
		return f.(*ssa.Function)
	}
	r := rt.reg
	r.mu.Lock()
	sel := r.msets.MethodSet(rt.T).Lookup(m.Pkg(), m.Name())
	r.mu.Unlock()
	var fn *ssa.Function
	if sel != nil {
		fn = r.prog.MethodValue(sel)
	}
	rt.methods.Store(m, fn)
	return fn
}

// implements reports whether rt's method set satisfies interface iface.
func (rt *RType) implements(iface *types.Interface) bool {
	return types.Implements(rt.T, iface)
}

var gcSizes = types.SizesFor("gc", "amd64")

// byteSize is the size in bytes of a value of the type on amd64.
func (rt *RType) byteSize() int64 {
	if rt.T == nil {
		return 1
	}
	return gcSizes.Sizeof(rt.T)
}

// hasPointers reports whether values of the type contain references.
func (rt *RType) hasPointers() bool {
	if rt.T == nil {
		return false
	}
	return typeHasPointers(rt.T, 0)
}

func typeHasPointers(t types.Type, depth int) bool {
	if depth > 20 {
		return true
	}
	switch u := t.Underlying().(type) {
	case *types.Basic:
		return u.Kind() == types.String || u.Kind() == types.UnsafePointer
	case *types.Struct:
		for i := 0; i < u.NumFields(); i++ {
			if typeHasPointers(u.Field(i).Type(), depth+1) {
				return true
			}
		}
		return false
	case *types.Array:
		return u.Len() > 0 && typeHasPointers(u.Elem(), depth+1)
	}
	return true
}

// methodByName returns the method value (unbound) of rt named name, or nil.
func (rt *RType) methodByName(name string) Value {
	r := rt.reg
	r.mu.Lock()
	ms := r.msets.MethodSet(rt.T)
	r.mu.Unlock()
	for i := 0; i < ms.Len(); i++ {
		if ms.At(i).Obj().Name() == name {
			if f := r.machine.methodClosure(rt, ms.At(i).Obj().(*types.Func)); f != nil {
				return f
			}
		}
	}
	return nil
}
