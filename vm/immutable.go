package vm

import (
	"go/token"
	"go/types"
	"sort"
	"strconv"
	"sync"

	"golang.org/x/tools/go/ssa"
	"golang.org/x/tools/go/ssa/ssautil"
)

// Globals whose objects never change after package initialization are not
// hash roots: every state has the same contents there, so hashing them
// with each state adds nothing (unicode's range tables, hundreds of
// objects, were most of the state hash of every program that imports
// strings; a test's table of cases is another).
//
// The rule is a type-based write analysis of the whole program. Every
// memory write an instruction can make after initialization — every
// function except the package initializers (init and init#N) — gets a
// location key:
//
//   - a store through a global, or through a field or element address
//     computed from one: that global;
//   - a store through a field address x.f: the field f of x's struct type;
//     through an element address: the element type of a slice, or the
//     array type (slicing an array counts as writing its elements);
//     through any other pointer *T: every location of type T;
//   - a store into an object the function allocated itself (a field or
//     element address computed from its own Alloc) is not a write to what
//     a global held after initialization: the object is new, and can only
//     become reachable from a global by a write into that global's objects,
//     which is itself a write;
//   - copy, append and clear into a slice: its element type; a map update,
//     delete or clear: the map's type;
//   - a call of a native (or of a function without a body, or through a
//     function value or an interface method, which may be one): every
//     location of the pointee type of each pointer argument, the element
//     type of each slice and the type of each map, except for the natives
//     of packages that only read their arguments (readOnlyNatives);
//   - a value converted to an interface or to unsafe.Pointer: every
//     location reachable from its type (reflect, or unsafe code, can write
//     anywhere through it); the address of a global used in any other way
//     than to load, store or compute a field or element address: the
//     global.
//
// Type keys are the types' underlying types as strings, so that two named
// types with one underlying type (convertible pointers) share their keys.
// A global is immutable when no key of its locations is written: itself,
// and the locations of every type its value can reach through fields,
// elements, pointers, slices and maps. A global whose value can hold an
// interface, a function, a channel or an unsafe.Pointer is never
// immutable (what it points to is not known by type). Natives that write
// a global by name list it in nativeWrittenGlobals.

// readOnlyNatives are packages whose natives only read their arguments.
var readOnlyNatives = map[string]bool{
	"unicode": true, "unicode/utf8": true, "internal/bytealg": true, "math": true, "math/bits": true,
}

// nativeWrittenGlobals are the globals of interpreted packages that
// natives write by name after initialization.
var nativeWrittenGlobals = map[string]bool{
	"time.localLoc": true, // time.initLocal
}

// writeSet is the location keys written after initialization.
type writeSet struct {
	keys    map[string]bool      // "A:T" every location of type T, "F:S.i" field i of struct S, "E:T" elements of type T, "M:T" maps of type T
	globals map[*ssa.Global]bool // globals written directly
	done    map[string]bool      // the types all has marked
}

// typeKeys caches typeKey per type (the analysis asks about the same
// types many times); only immutableGlobals uses it, under typeKeysMu.
var (
	typeKeysMu sync.Mutex
	typeKeys   = map[types.Type]string{}
)

func typeKey(t types.Type) string {
	if k, ok := typeKeys[t]; ok {
		return k
	}
	k := types.TypeString(t.Underlying(), nil)
	typeKeys[t] = k
	return k
}

// immutableGlobals returns the globals among cands whose objects never
// change after initialization.
func immutableGlobals(prog *ssa.Program, natives map[string]*nativeFunc, cands []*ssa.Global) map[*ssa.Global]bool {
	typeKeysMu.Lock()
	defer func() {
		clear(typeKeys) // the program's types are not kept alive
		typeKeysMu.Unlock()
	}()
	w := &writeSet{keys: map[string]bool{}, globals: map[*ssa.Global]bool{}, done: map[string]bool{}}
	for fn := range ssautil.AllFunctions(prog) {
		if fn.Blocks == nil || isPackageInit(fn) || natives[fn.String()] != nil {
			continue
		}
		if fn.TypeParams().Len() > 0 && len(fn.TypeArgs()) == 0 {
			continue // a generic body: the VM runs its instances
		}
		for _, b := range fn.Blocks {
			for _, in := range b.Instrs {
				w.instr(in, natives)
			}
		}
	}
	out := map[*ssa.Global]bool{}
	for _, g := range cands {
		if w.globals[g] || nativeWrittenGlobals[g.Pkg.Pkg.Path()+"."+g.Name()] {
			continue
		}
		seen := map[string]bool{}
		if w.reaches(g.Type().(*types.Pointer).Elem(), true, seen) {
			continue
		}
		out[g] = true
	}
	return out
}

// isPackageInit reports whether fn is a package initializer.
func isPackageInit(fn *ssa.Function) bool {
	if fn.Parent() != nil || fn.Signature.Recv() != nil || fn.Pkg == nil {
		return false
	}
	name := fn.Name()
	if name == "init" {
		return true
	}
	if len(name) > 5 && name[:5] == "init#" {
		_, err := strconv.Atoi(name[5:])
		return err == nil
	}
	return false
}

// reaches reports whether a location of a value of type t, or of what it
// points to, is written (or unknown); obj: the value is a whole object
// (a global's, or a pointer's pointee), which a store through a plain
// pointer can replace.
func (w *writeSet) reaches(t types.Type, obj bool, seen map[string]bool) bool {
	k := typeKey(t)
	if obj && w.keys["A:"+k] {
		return true
	}
	sk := k
	if obj {
		sk = "*" + k
	}
	if seen[sk] {
		return false
	}
	seen[sk] = true
	switch u := t.Underlying().(type) {
	case *types.Basic:
		return u.Kind() == types.UnsafePointer
	case *types.Struct:
		for i := 0; i < u.NumFields(); i++ {
			if w.keys["F:"+k+"."+strconv.Itoa(i)] || w.reaches(u.Field(i).Type(), false, seen) {
				return true
			}
		}
		return false
	case *types.Array:
		return w.keys["EA:"+k] || w.reaches(u.Elem(), false, seen)
	case *types.Slice:
		return w.keys["E:"+typeKey(u.Elem())] || w.reaches(u.Elem(), false, seen)
	case *types.Pointer:
		return w.reaches(u.Elem(), true, seen)
	case *types.Map:
		return w.keys["M:"+k] || w.reaches(u.Key(), false, seen) || w.reaches(u.Elem(), false, seen)
	}
	return true // interface, function, channel, type parameter, tuple
}

// all marks every location of type t and every location reachable from
// it as written.
func (w *writeSet) all(t types.Type) {
	k := typeKey(t)
	if w.done[k] {
		return
	}
	w.done[k] = true
	w.keys["A:"+k] = true
	switch u := t.Underlying().(type) {
	case *types.Struct:
		for i := 0; i < u.NumFields(); i++ {
			w.keys["F:"+k+"."+strconv.Itoa(i)] = true
			w.all(u.Field(i).Type())
		}
	case *types.Array:
		w.keys["EA:"+k] = true
		w.all(u.Elem())
	case *types.Slice:
		w.keys["E:"+typeKey(u.Elem())] = true
		w.all(u.Elem())
	case *types.Pointer:
		w.all(u.Elem())
	case *types.Map:
		w.keys["M:"+k] = true
		w.all(u.Key())
		w.all(u.Elem())
	}
}

// refs marks what can be written through the references a value of type
// t holds (a native's argument, a value converted to an interface): the
// objects its pointers, slices and maps lead to, not the value's own
// cells (a copy).
func (w *writeSet) refs(t types.Type) {
	switch u := t.Underlying().(type) {
	case *types.Pointer:
		w.all(u.Elem())
	case *types.Slice, *types.Map:
		w.all(t)
	case *types.Struct:
		for i := 0; i < u.NumFields(); i++ {
			w.refs(u.Field(i).Type())
		}
	case *types.Array:
		w.refs(u.Elem())
	}
}

// addrRoot returns the global or allocation an address is computed from
// by field and array element addresses (nil: another pointer).
func addrRoot(v ssa.Value) ssa.Value {
	for {
		switch x := v.(type) {
		case *ssa.FieldAddr:
			v = x.X
		case *ssa.IndexAddr:
			if _, isSlice := x.X.Type().Underlying().(*types.Slice); isSlice {
				return nil // a slice's elements are not in the slice variable
			}
			v = x.X
		case *ssa.Global, *ssa.Alloc:
			return x
		default:
			return nil
		}
	}
}

// store records a store through address a.
func (w *writeSet) store(a ssa.Value) {
	switch r := addrRoot(a).(type) {
	case *ssa.Global:
		w.globals[r] = true
		return
	case *ssa.Alloc:
		return // the function's own new object
	}
	switch x := a.(type) {
	case *ssa.FieldAddr:
		st := x.X.Type().Underlying().(*types.Pointer).Elem()
		w.keys["F:"+typeKey(st)+"."+strconv.Itoa(x.Field)] = true
	case *ssa.IndexAddr:
		w.keys[indexKey(x)] = true
	default:
		w.keys["A:"+typeKey(a.Type().Underlying().(*types.Pointer).Elem())] = true
	}
}

// instr records the writes of one instruction.
func (w *writeSet) instr(in ssa.Instruction, natives map[string]*nativeFunc) {
	switch x := in.(type) {
	case *ssa.Store:
		w.store(x.Addr)
	case *ssa.MapUpdate:
		w.keys["M:"+typeKey(x.Map.Type())] = true
	case *ssa.Slice:
		if p, ok := x.X.Type().Underlying().(*types.Pointer); ok {
			w.keys["EA:"+typeKey(p.Elem())] = true // its elements are the slice's
		}
	case *ssa.MakeInterface:
		w.refs(x.X.Type())
	case *ssa.Convert:
		if b, ok := x.Type().Underlying().(*types.Basic); ok && b.Kind() == types.UnsafePointer {
			w.refs(x.X.Type())
		}
	case ssa.CallInstruction:
		w.call(x.Common(), natives)
	}
	// a global's address used otherwise than to load, store or compute a
	// field or element address
	var ops [8]*ssa.Value
	for _, op := range in.Operands(ops[:0]) {
		if op == nil || *op == nil {
			continue
		}
		switch x := in.(type) {
		case *ssa.UnOp:
			if x.Op == token.MUL {
				continue // a load
			}
		case *ssa.Store:
			if op == &x.Addr {
				continue
			}
		case *ssa.FieldAddr, *ssa.IndexAddr:
			continue
		}
		w.escapes(*op)
	}
}

// escapes records an address used otherwise than to load, store or
// compute a field or element address: whatever it is passed to may write
// there later through a plain pointer.
func (w *writeSet) escapes(v ssa.Value) {
	switch x := v.(type) {
	case *ssa.FieldAddr:
		st := x.X.Type().Underlying().(*types.Pointer).Elem()
		w.keys["F:"+typeKey(st)+"."+strconv.Itoa(x.Field)] = true
	case *ssa.IndexAddr:
		w.keys[indexKey(x)] = true
	default:
		return
	}
	if r, ok := addrRoot(v).(*ssa.Global); ok {
		w.globals[r] = true
	}
}

// indexKey is the key of the element an IndexAddr addresses: "E:T" for a
// slice's elements of type T, "EA:A" for an element of an array of type A
// (an array's elements are written through a slice of it only once the
// array was sliced, which writes its EA key).
func indexKey(x *ssa.IndexAddr) string {
	if u, ok := x.X.Type().Underlying().(*types.Slice); ok {
		return "E:" + typeKey(u.Elem())
	}
	if p, ok := x.X.Type().Underlying().(*types.Pointer); ok {
		return "EA:" + typeKey(p.Elem())
	}
	return "A:?"
}

// call records what a call may write.
func (w *writeSet) call(c *ssa.CallCommon, natives map[string]*nativeFunc) {
	if b, ok := c.Value.(*ssa.Builtin); ok {
		switch b.Name() {
		case "copy", "append", "clear":
			if len(c.Args) > 0 {
				switch u := c.Args[0].Type().Underlying().(type) {
				case *types.Slice:
					w.keys["E:"+typeKey(u.Elem())] = true
				case *types.Map:
					w.keys["M:"+typeKey(c.Args[0].Type())] = true
				}
			}
		case "delete":
			w.keys["M:"+typeKey(c.Args[0].Type())] = true
		}
		return
	}
	if fn := c.StaticCallee(); fn != nil && natives[fn.String()] == nil && fn.Blocks != nil {
		return // its body is analysed
	} else if fn != nil && fn.Pkg != nil && readOnlyNatives[fn.Pkg.Pkg.Path()] {
		return
	}
	for _, a := range c.Args {
		w.refs(a.Type())
	}
}

// ImmutableGlobals lists the globals of interpreted packages that are not
// hash roots (for tests and diagnostics).
func (m *Machine) ImmutableGlobals() []string {
	roots := map[ObjID]bool{}
	for _, id := range m.hashRoots {
		roots[id] = true
	}
	var out []string
	for g, p := range m.globals {
		if m.prog.Interpreted(g.Pkg.Pkg.Path()) && p.Obj != m.zerobase && !roots[p.Obj] {
			out = append(out, g.Pkg.Pkg.Name()+"."+g.Name())
		}
	}
	sort.Strings(out)
	return out
}
