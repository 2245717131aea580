package vm

import (
	"go/types"
	"reflect"
	"strconv"
	"strings"
)

// Native model of package reflect's types: DeepEqual (see deepequal.go),
// TypeOf and the methods of the Type it returns (struct fields in
// natives_reflect_field.go; Values in natives_reflect_value.go).
//
// Representation: reflect.TypeOf returns, as in Go, a reflect.Type holding
// a *reflect.rtype; the VM value of that pointer is an rtypeRef naming the
// VM type (the same value the internal/reflectlite model uses, and the
// value of an *abi.Type), not a heap address. rtypeRefs of one type are
// equal, so reflect.TypeOf(x) == reflect.TypeOf(y) and maps keyed by
// reflect.Type behave as in Go, and fmt prints a Type through its String
// method (%T gives *reflect.rtype).
//
// Modelled methods of Type: String, Name, PkgPath, Kind, Elem, Key, Len,
// NumField, Field, FieldByName, FieldByIndex, NumIn, In, NumOut, Out,
// IsVariadic, ChanDir, Comparable, Size, Bits, NumMethod, Implements,
// AssignableTo, ConvertibleTo, Method and MethodByName
// (natives_reflect_method.go); reflect.Kind.String and
// reflect.ChanDir.String. A method not modelled stops the run with the
// VM's "unsupported: call of ... (no body and no model)" error.

// rtypeOfRef returns the VM type named by a *reflect.rtype receiver.
func rtypeOfRef(v Value) *RType {
	if r, ok := v.(rtypeRef); ok {
		return r.rt
	}
	return nil
}

// reflectPkgType returns the reflect.Type (an interface holding a
// *reflect.rtype) describing rt; the nil interface for a nil rt.
func (t *thread) reflectPkgType(rt *RType) (Value, bool) {
	if rt == nil {
		return Iface{}, true
	}
	ptrT := t.m.lookupType("reflect", "*rtype")
	if ptrT == nil {
		return nil, false
	}
	return Iface{T: ptrT, V: rtypeRef{rt}}, true
}

// reflectTypeString formats t as reflect's Type.String does: package names
// qualify named types, full import paths qualify the type arguments of
// generic instances, byte and rune are uint8 and int32, and empty
// interfaces and structs are "interface {}" and "struct {}".
func reflectTypeString(t types.Type) string {
	var b strings.Builder
	writeReflectType(&b, t, false)
	return b.String()
}

// reflectTypeName is reflect's Type.Name: the name of a named or
// predeclared type (with its type arguments), "" for other types.
func reflectTypeName(t types.Type) string {
	var b strings.Builder
	switch x := types.Unalias(t).(type) {
	case *types.Named:
		b.WriteString(x.Obj().Name())
		writeTypeArgs(&b, x)
	case *types.Basic:
		writeReflectType(&b, x, false)
		if x.Kind() == types.UnsafePointer {
			return "Pointer"
		}
	}
	return b.String()
}

func writeTypeArgs(b *strings.Builder, n *types.Named) {
	args := n.TypeArgs()
	if args.Len() == 0 {
		return
	}
	b.WriteByte('[')
	for i := 0; i < args.Len(); i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		writeReflectType(b, args.At(i), true)
	}
	b.WriteByte(']')
}

// reflectPkgPath is the import path of pkg as the linker records it: the
// main package's is "main" whatever its module path.
func reflectPkgPath(pkg *types.Package) string {
	if pkg.Name() == "main" {
		return "main"
	}
	return pkg.Path()
}

// writeReflectType writes t; fullPath qualifies named types by import path
// (inside type arguments) instead of package name.
func writeReflectType(b *strings.Builder, t types.Type, fullPath bool) {
	switch x := types.Unalias(t).(type) {
	case *types.Basic:
		if x.Kind() == types.UnsafePointer {
			b.WriteString("unsafe.Pointer")
			return
		}
		b.WriteString(types.Typ[x.Kind()].Name())
	case *types.Named:
		if pkg := x.Obj().Pkg(); pkg != nil {
			if fullPath {
				b.WriteString(reflectPkgPath(pkg))
			} else {
				b.WriteString(pkg.Name())
			}
			b.WriteByte('.')
		}
		b.WriteString(x.Obj().Name())
		writeTypeArgs(b, x)
	case *types.Pointer:
		b.WriteByte('*')
		writeReflectType(b, x.Elem(), fullPath)
	case *types.Slice:
		b.WriteString("[]")
		writeReflectType(b, x.Elem(), fullPath)
	case *types.Array:
		b.WriteString("[" + strconv.FormatInt(x.Len(), 10) + "]")
		writeReflectType(b, x.Elem(), fullPath)
	case *types.Map:
		b.WriteString("map[")
		writeReflectType(b, x.Key(), fullPath)
		b.WriteByte(']')
		writeReflectType(b, x.Elem(), fullPath)
	case *types.Chan:
		switch x.Dir() {
		case types.SendOnly:
			b.WriteString("chan<- ")
		case types.RecvOnly:
			b.WriteString("<-chan ")
		default:
			b.WriteString("chan ")
			if e, ok := types.Unalias(x.Elem()).(*types.Chan); ok && e.Dir() == types.RecvOnly {
				b.WriteByte('(')
				writeReflectType(b, e, fullPath)
				b.WriteByte(')')
				return
			}
		}
		writeReflectType(b, x.Elem(), fullPath)
	case *types.Signature:
		b.WriteString("func")
		writeSignature(b, x, fullPath)
	case *types.Interface:
		if x.NumMethods() == 0 {
			b.WriteString("interface {}")
			return
		}
		b.WriteString("interface { ")
		for i := 0; i < x.NumMethods(); i++ {
			if i > 0 {
				b.WriteString("; ")
			}
			m := x.Method(i)
			b.WriteString(m.Name())
			writeSignature(b, m.Type().(*types.Signature), fullPath)
		}
		b.WriteString(" }")
	case *types.Struct:
		if x.NumFields() == 0 {
			b.WriteString("struct {}")
			return
		}
		b.WriteString("struct { ")
		for i := 0; i < x.NumFields(); i++ {
			if i > 0 {
				b.WriteString("; ")
			}
			f := x.Field(i)
			if !f.Embedded() {
				b.WriteString(f.Name() + " ")
			}
			writeReflectType(b, f.Type(), fullPath)
			if tag := x.Tag(i); tag != "" {
				b.WriteString(" " + strconv.Quote(tag))
			}
		}
		b.WriteString(" }")
	case *types.TypeParam:
		b.WriteString(x.Obj().Name())
	default:
		b.WriteString(t.String())
	}
}

// writeSignature writes a function's parameters and results ("(int, ...string) (int, error)").
func writeSignature(b *strings.Builder, sig *types.Signature, fullPath bool) {
	b.WriteByte('(')
	ps := sig.Params()
	for i := 0; i < ps.Len(); i++ {
		if i > 0 {
			b.WriteString(", ")
		}
		if sig.Variadic() && i == ps.Len()-1 {
			b.WriteString("...")
			writeReflectType(b, ps.At(i).Type().(*types.Slice).Elem(), fullPath)
			continue
		}
		writeReflectType(b, ps.At(i).Type(), fullPath)
	}
	b.WriteByte(')')
	rs := sig.Results()
	switch rs.Len() {
	case 0:
	case 1:
		b.WriteByte(' ')
		writeReflectType(b, rs.At(0).Type(), fullPath)
	default:
		b.WriteString(" (")
		for i := 0; i < rs.Len(); i++ {
			if i > 0 {
				b.WriteString(", ")
			}
			writeReflectType(b, rs.At(i).Type(), fullPath)
		}
		b.WriteByte(')')
	}
}

// rtypeMethod registers a native method of *reflect.rtype; fn gets the
// described type (never nil: a nil Type panics before the call).
func rtypeMethod(name string, fn func(t *thread, rt *RType, args []Value) (Value, ctl)) {
	def("(*reflect.rtype)."+name, func(t *thread, args []Value) (Value, ctl) {
		rt := rtypeOfRef(args[0])
		if rt == nil {
			return nil, t.unsupported(t.g.top, "reflect.Type."+name+" of a type not made by reflect.TypeOf")
		}
		return fn(t, rt, args[1:])
	})
}

// typeArg returns the type described by a reflect.Type argument.
func typeArg(v Value) *RType {
	iv, _ := v.(Iface)
	return rtypeOfRef(iv.V)
}

func init() {
	def("reflect.DeepEqual", nativeReflectDeepEqual)
	def("reflect.TypeOf", nativeReflectTypeOf)
	def("(reflect.Kind).String", nativeReflectKindString)
	def("(reflect.ChanDir).String", nativeReflectChanDirString)
	rtypeMethod("String", func(t *thread, rt *RType, _ []Value) (Value, ctl) {
		return reflectTypeString(rt.T), ctlNext
	})
	rtypeMethod("Name", func(t *thread, rt *RType, _ []Value) (Value, ctl) {
		return reflectTypeName(rt.T), ctlNext
	})
	rtypeMethod("PkgPath", func(t *thread, rt *RType, _ []Value) (Value, ctl) {
		if n, ok := types.Unalias(rt.T).(*types.Named); ok && n.Obj().Pkg() != nil {
			return reflectPkgPath(n.Obj().Pkg()), ctlNext
		}
		if basicKindOf(rt.T) == types.UnsafePointer && rt.T == rt.T.Underlying() {
			return "unsafe", ctlNext
		}
		return "", ctlNext
	})
	rtypeMethod("Kind", func(t *thread, rt *RType, _ []Value) (Value, ctl) {
		return reflectKind(rt.T), ctlNext
	})
	describe := func(t *thread, rt *RType) (Value, ctl) {
		v, ok := t.reflectPkgType(rt)
		if !ok {
			return nil, t.unsupported(t.g.top, "reflect.Type without package reflect's types")
		}
		return v, ctlNext
	}
	rtypeMethod("Elem", func(t *thread, rt *RType, _ []Value) (Value, ctl) {
		switch rt.T.Underlying().(type) {
		case *types.Array, *types.Chan, *types.Map, *types.Pointer, *types.Slice:
			return describe(t, rt.Elem)
		}
		return nil, t.stringPanic("reflect: Elem of invalid type " + reflectTypeString(rt.T))
	})
	rtypeMethod("Key", func(t *thread, rt *RType, _ []Value) (Value, ctl) {
		if _, ok := rt.T.Underlying().(*types.Map); !ok {
			return nil, t.stringPanic("reflect: Key of non-map type " + reflectTypeString(rt.T))
		}
		return describe(t, rt.Key)
	})
	rtypeMethod("Len", func(t *thread, rt *RType, _ []Value) (Value, ctl) {
		if _, ok := rt.T.Underlying().(*types.Array); !ok {
			return nil, t.stringPanic("reflect: Len of non-array type " + reflectTypeString(rt.T))
		}
		return rt.Len, ctlNext
	})
	rtypeMethod("NumField", func(t *thread, rt *RType, _ []Value) (Value, ctl) {
		s, ok := rt.T.Underlying().(*types.Struct)
		if !ok {
			return nil, t.stringPanic("reflect: NumField of non-struct type " + reflectTypeString(rt.T))
		}
		return s.NumFields(), ctlNext
	})
	signature := func(name string, fn func(sig *types.Signature) Value) {
		rtypeMethod(name, func(t *thread, rt *RType, _ []Value) (Value, ctl) {
			sig, ok := rt.T.Underlying().(*types.Signature)
			if !ok {
				return nil, t.stringPanic("reflect: " + name + " of non-func type " + reflectTypeString(rt.T))
			}
			return fn(sig), ctlNext
		})
	}
	signature("NumIn", func(sig *types.Signature) Value { return sig.Params().Len() })
	signature("NumOut", func(sig *types.Signature) Value { return sig.Results().Len() })
	signature("IsVariadic", func(sig *types.Signature) Value { return sig.Variadic() })
	rtypeMethod("ChanDir", func(t *thread, rt *RType, _ []Value) (Value, ctl) {
		c, ok := rt.T.Underlying().(*types.Chan)
		if !ok {
			return nil, t.stringPanic("reflect: ChanDir of non-chan type " + reflectTypeString(rt.T))
		}
		switch c.Dir() {
		case types.SendOnly:
			return int(reflect.SendDir), ctlNext
		case types.RecvOnly:
			return int(reflect.RecvDir), ctlNext
		}
		return int(reflect.BothDir), ctlNext
	})
	rtypeMethod("Comparable", func(t *thread, rt *RType, _ []Value) (Value, ctl) {
		return types.Comparable(rt.T), ctlNext
	})
	rtypeMethod("Size", func(t *thread, rt *RType, _ []Value) (Value, ctl) {
		return uintptr(rt.byteSize()), ctlNext
	})
	rtypeMethod("Bits", func(t *thread, rt *RType, _ []Value) (Value, ctl) {
		b, ok := rt.T.Underlying().(*types.Basic)
		if !ok || b.Info()&types.IsNumeric == 0 {
			return nil, t.stringPanic("reflect: Bits of non-arithmetic Type " + reflectTypeString(rt.T))
		}
		return int(rt.byteSize()) * 8, ctlNext
	})
	relation := func(name string, rel func(v, u types.Type) bool) {
		rtypeMethod(name, func(t *thread, rt *RType, args []Value) (Value, ctl) {
			u := typeArg(args[0])
			if u == nil {
				return nil, t.stringPanic("reflect: nil type passed to Type." + name)
			}
			return rel(rt.T, u.T), ctlNext
		})
	}
	relation("AssignableTo", types.AssignableTo)
	relation("ConvertibleTo", types.ConvertibleTo)
	rtypeMethod("Implements", func(t *thread, rt *RType, args []Value) (Value, ctl) {
		u := typeArg(args[0])
		if u == nil {
			return nil, t.stringPanic("reflect: nil type passed to Type.Implements")
		}
		it, ok := u.T.Underlying().(*types.Interface)
		if !ok {
			return nil, t.stringPanic("reflect: non-interface type passed to Type.Implements")
		}
		return types.Implements(rt.T, it), ctlNext
	})
}

// nativeReflectDeepEqual is reflect.DeepEqual.
func nativeReflectDeepEqual(t *thread, args []Value) (Value, ctl) {
	x, _ := args[0].(Iface)
	y, _ := args[1].(Iface)
	return t.deepEqual(x, y), ctlNext
}

// nativeReflectTypeOf is reflect.TypeOf.
func nativeReflectTypeOf(t *thread, args []Value) (Value, ctl) {
	iv, _ := args[0].(Iface)
	v, ok := t.reflectPkgType(iv.T)
	if !ok {
		return nil, t.unsupported(t.g.top, "reflect.TypeOf without package reflect's types")
	}
	return v, ctlNext
}

// The generic reflect.TypeFor[T] is interpreted from its source; it reaches
// internal/abi.TypeFor[T] (a native per instance), internal/abi.TypeOf, (*abi.Type).Elem and reflect.toRType, whose values
// here are the rtypeRefs of reflect.TypeOf (an *abi.Type and a
// *reflect.rtype name the same VM type).
func init() {
	genericNatives["internal/abi.TypeFor"] = func(m *Machine, targs []types.Type) *nativeFunc {
		rt := m.types.get(targs[0])
		return &nativeFunc{name: "internal/abi.TypeFor", fn: func(t *thread, args []Value) (Value, ctl) {
			return rtypeRef{rt}, ctlNext
		}}
	}
	def("internal/abi.TypeOf", nativeInternalAbiTypeOf)
	def("(*internal/abi.Type).Elem", nativeInternalAbiTypeElem)
	def("reflect.toRType", nativeReflectToRType)
}

// nativeInternalAbiTypeOf is internal/abi.TypeOf.
func nativeInternalAbiTypeOf(t *thread, args []Value) (Value, ctl) {
	iv, _ := args[0].(Iface)
	if iv.T == nil {
		return Pointer{}, ctlNext
	}
	return rtypeRef{iv.T}, ctlNext
}

// nativeInternalAbiTypeElem is (*internal/abi.Type).Elem.
func nativeInternalAbiTypeElem(t *thread, args []Value) (Value, ctl) {
	rt := rtypeOfRef(args[0])
	if rt == nil || rt.Elem == nil {
		return nil, t.unsupported(t.g.top, "(*abi.Type).Elem of a type without elements")
	}
	return rtypeRef{rt.Elem}, ctlNext
}

// nativeReflectToRType is reflect.toRType.
func nativeReflectToRType(t *thread, args []Value) (Value, ctl) { return args[0], ctlNext }

// nativeReflectKindString is (reflect.Kind).String.
func nativeReflectKindString(t *thread, args []Value) (Value, ctl) {
	return reflect.Kind(toUint64(args[0])).String(), ctlNext
}

// nativeReflectChanDirString is (reflect.ChanDir).String.
func nativeReflectChanDirString(t *thread, args []Value) (Value, ctl) {
	return reflect.ChanDir(toInt(args[0])).String(), ctlNext
}
