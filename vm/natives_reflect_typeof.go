package vm

import "go/types"

// reflect's type constructors over the VM's types: reflect.MapOf,
// SliceOf, ChanOf, ArrayOf and FuncOf build the go/types type and return
// its reflect.Type (hashicorp/go-memdb builds map[string]string's type with
// MapOf in a package initializer; thoas/go-funk's Reduce a func type with
// FuncOf for MakeFunc). PointerTo is in natives_reflect_value.go, StructOf
// in natives_reflect_structof.go.

func init() {
	def("reflect.MapOf", nativeReflectMapOf)
	def("reflect.SliceOf", nativeReflectSliceOf)
	def("reflect.ChanOf", nativeReflectChanOf)
	def("reflect.ArrayOf", nativeReflectArrayOf)
	def("reflect.FuncOf", nativeReflectFuncOf)
}

// reflectTypeResult returns the reflect.Type of T.
func (t *thread) reflectTypeResult(T types.Type) (Value, ctl) {
	v, ok := t.reflectPkgType(t.m.types.get(T))
	if !ok {
		return nil, t.unsupported(t.g.top, "reflect.Type without package reflect's types")
	}
	return v, ctlNext
}

// nativeReflectMapOf is reflect.MapOf: it panics, as Go, for a key type
// that is not comparable.
func nativeReflectMapOf(t *thread, args []Value) (Value, ctl) {
	key, elem := typeArg(args[0]), typeArg(args[1])
	if key == nil || elem == nil {
		return nil, t.runtimePanic(t.g.top, "invalid memory address or nil pointer dereference")
	}
	if !types.Comparable(key.T) {
		return nil, t.stringPanic("reflect.MapOf: invalid key type " + reflectTypeString(key.T))
	}
	return t.reflectTypeResult(types.NewMap(key.T, elem.T))
}

// nativeReflectSliceOf is reflect.SliceOf.
func nativeReflectSliceOf(t *thread, args []Value) (Value, ctl) {
	elem := typeArg(args[0])
	if elem == nil {
		return nil, t.runtimePanic(t.g.top, "invalid memory address or nil pointer dereference")
	}
	return t.reflectTypeResult(types.NewSlice(elem.T))
}

// nativeReflectChanOf is reflect.ChanOf (reflect.ChanDir: RecvDir 1,
// SendDir 2, BothDir 3).
func nativeReflectChanOf(t *thread, args []Value) (Value, ctl) {
	elem := typeArg(args[1])
	if elem == nil {
		return nil, t.runtimePanic(t.g.top, "invalid memory address or nil pointer dereference")
	}
	var dir types.ChanDir
	switch toInt(args[0]) {
	case 1:
		dir = types.RecvOnly
	case 2:
		dir = types.SendOnly
	case 3:
		dir = types.SendRecv
	default:
		return nil, t.stringPanic("reflect.ChanOf: invalid dir")
	}
	return t.reflectTypeResult(types.NewChan(dir, elem.T))
}

// nativeReflectArrayOf is reflect.ArrayOf.
func nativeReflectArrayOf(t *thread, args []Value) (Value, ctl) {
	n := toInt(args[0])
	elem := typeArg(args[1])
	if elem == nil {
		return nil, t.runtimePanic(t.g.top, "invalid memory address or nil pointer dereference")
	}
	if n < 0 {
		return nil, t.stringPanic("reflect: negative length passed to ArrayOf")
	}
	return t.reflectTypeResult(types.NewArray(elem.T, int64(n)))
}

// nativeReflectFuncOf is reflect.FuncOf(in, out []Type, variadic bool),
// with Go's panics.
func nativeReflectFuncOf(t *thread, args []Value) (Value, ctl) {
	typeT := t.m.lookupType("reflect", "Type")
	if typeT == nil {
		return nil, t.unsupported(t.g.top, "reflect.FuncOf without package reflect's types")
	}
	vars := func(v Value) ([]*types.Var, bool) {
		sl, _ := v.(Slice)
		var out []*types.Var
		for i := 0; i < sl.Len; i++ {
			rt := typeArg(t.s.sliceElem(sl, typeT, i))
			if rt == nil {
				return nil, false
			}
			out = append(out, types.NewParam(0, nil, "", rt.T))
		}
		return out, true
	}
	in, okIn := vars(args[0])
	out, okOut := vars(args[1])
	if !okIn || !okOut {
		return nil, t.runtimePanic(t.g.top, "invalid memory address or nil pointer dereference")
	}
	variadic, _ := args[2].(bool)
	if variadic {
		if len(in) == 0 {
			return nil, t.stringPanic("reflect.FuncOf: last arg of variadic func must be slice")
		}
		if _, ok := in[len(in)-1].Type().Underlying().(*types.Slice); !ok {
			return nil, t.stringPanic("reflect.FuncOf: last arg of variadic func must be slice")
		}
	}
	if len(in)+len(out) > 128 {
		return nil, t.stringPanic("reflect.FuncOf: too many arguments")
	}
	return t.reflectTypeResult(types.NewSignatureType(nil, nil, nil, types.NewTuple(in...), types.NewTuple(out...), variadic))
}
