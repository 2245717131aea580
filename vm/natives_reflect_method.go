package vm

import (
	"go/types"
	"reflect"
)

// Native model of reflect's methods: Type.Method, Type.MethodByName,
// Value.Method and Value.MethodByName (testify's suite.Run finds a suite's
// tests with Type.Method and calls them through Method.Func.Call).
//
// The methods are those of the type's method set that are exported,
// sorted by name, as reflect numbers them; an interface type's are all of
// its methods. Method.Func is the VM function of the method with the
// receiver as its first parameter (a wrapper for promoted and
// pointer-receiver methods, as go/ssa builds it) and Method.Type its
// signature with the receiver first; an interface type's Method has no
// Func and its Type has no receiver. Value.Method(i) is a function value
// bound to the receiver: a closure of the native boundMethodStub that
// calls the method above a continuation frame, so the method's own
// operations stay scheduling points.

// boundMethodStub is the native behind every method value made by
// Value.Method: its binding is the method's function and the receiver.
var boundMethodStub = &nativeFunc{name: "reflect.methodValueCall", fn: callBoundMethod}

// reflectMethods returns the methods reflect numbers for rt: the exported
// methods of its method set (every method of an interface), by name.
func reflectMethods(rt *RType) []*types.Func {
	var out []*types.Func
	if it, ok := rt.T.Underlying().(*types.Interface); ok {
		for i := 0; i < it.NumMethods(); i++ {
			out = append(out, it.Method(i))
		}
		return out
	}
	r := rt.reg
	r.mu.Lock()
	ms := r.msets.MethodSet(rt.T)
	r.mu.Unlock()
	for i := 0; i < ms.Len(); i++ {
		if f := ms.At(i).Obj().(*types.Func); f.Exported() {
			out = append(out, f)
		}
	}
	return out
}

// reflectMethodSig is m's signature as reflect shows it: with a parameter for the
// receiver of type recv first, unless recv is nil.
func reflectMethodSig(m *types.Func, recv types.Type) *types.Signature {
	sig := m.Type().(*types.Signature)
	if recv == nil {
		return types.NewSignatureType(nil, nil, nil, sig.Params(), sig.Results(), sig.Variadic())
	}
	params := []*types.Var{types.NewParam(0, nil, "", recv)}
	for i := 0; i < sig.Params().Len(); i++ {
		params = append(params, sig.Params().At(i))
	}
	return types.NewSignatureType(nil, nil, nil, types.NewTuple(params...), sig.Results(), sig.Variadic())
}

// reflectMethod builds reflect.Method for method i of rt's methods ms.
func (t *thread) reflectMethod(rt *RType, ms []*types.Func, i int) (Value, ctl) {
	mT := t.m.lookupType("reflect", "Method")
	if mT == nil {
		return nil, t.unsupported(t.g.top, "reflect.Method without package reflect's types")
	}
	m := ms[i]
	isIface := types.IsInterface(rt.T)
	recv := rt.T
	if isIface {
		recv = nil
	}
	sigT := t.m.types.get(reflectMethodSig(m, recv))
	typ, ok := t.reflectPkgType(sigT)
	if !ok {
		return nil, t.unsupported(t.g.top, "reflect.Method of "+reflectTypeString(rt.T))
	}
	fn := packValue(rvalue{})
	if !isIface {
		cl := t.m.methodClosure(rt, m)
		if cl == nil {
			return nil, t.unsupported(t.g.top, "reflect.Method "+m.Name()+" of "+reflectTypeString(rt.T)+" (no function)")
		}
		fn = packValue(t.newRValue(sigT, cl, 0))
	}
	st := mT.T.Underlying().(*types.Struct)
	cells := append([]Value(nil), mT.Zero().([]Value)...)
	for k := 0; k < st.NumFields(); k++ {
		off := mT.Fields[k]
		switch st.Field(k).Name() {
		case "Name":
			cells[off] = m.Name()
		case "PkgPath":
			if !m.Exported() && m.Pkg() != nil {
				cells[off] = reflectPkgPath(m.Pkg())
			}
		case "Type":
			cells[off] = typ
		case "Func":
			copy(cells[off:], fn.([]Value))
		case "Index":
			cells[off] = i
		}
	}
	return cells, ctlNext
}

// methodIndex returns the index of the method named name in ms, or -1.
func methodIndex(ms []*types.Func, name string) int {
	for i, m := range ms {
		if m.Name() == name {
			return i
		}
	}
	return -1
}

// valueMethodOf is Value.Method(i) of v (method ms[i] of v's type, or of
// the dynamic value's when v holds an interface): a func Value bound to
// the receiver.
func (t *thread) valueMethodOf(v rvalue, ms []*types.Func, i int) (Value, ctl) {
	recvT, recv := v.rt, t.rload(v)
	m := ms[i]
	if types.IsInterface(v.rt.T) {
		iv, _ := recv.(Iface)
		if iv.T == nil {
			return nil, t.stringPanic("reflect: Method on nil interface value")
		}
		recvT, recv = iv.T, iv.V
	}
	cl := recvT.methodByName(m.Name())
	if cl == nil {
		return nil, t.unsupported(t.g.top, "reflect.Value.Method "+m.Name()+" of "+reflectTypeString(recvT.T)+" (no function)")
	}
	sigT := t.m.types.get(reflectMethodSig(m, nil))
	bound := &Closure{Native: boundMethodStub, Bound: []Value{cl, recv}}
	return packValue(t.newRValue(sigT, bound, v.flag&rflagRO)), ctlNext
}

// callBoundMethod runs a method value made by Value.Method: args[0] is its
// binding (the method's function and the receiver), the rest the call's
// arguments.
func callBoundMethod(t *thread, args []Value) (Value, ctl) {
	bound, _ := args[0].([]Value)
	callArgs := append([]Value{bound[1]}, args[1:]...)
	return nil, t.callCont(t.g.top, bound[0], callArgs, func(t *thread, res Value) ctl {
		return t.ret(t.g.top, res)
	})
}

func nativeReflectTypeMethod(t *thread, args []Value) (Value, ctl) {
	rt := rtypeOfRef(args[0])
	if rt == nil {
		return nil, t.unsupported(t.g.top, "reflect.Type.Method of a type not made by reflect.TypeOf")
	}
	ms := reflectMethods(rt)
	i := toInt(args[1])
	if i < 0 || i >= len(ms) {
		return nil, t.stringPanic("reflect: Method index out of range")
	}
	return t.reflectMethod(rt, ms, i)
}

func nativeReflectTypeMethodByName(t *thread, args []Value) (Value, ctl) {
	rt := rtypeOfRef(args[0])
	if rt == nil {
		return nil, t.unsupported(t.g.top, "reflect.Type.MethodByName of a type not made by reflect.TypeOf")
	}
	ms := reflectMethods(rt)
	i := methodIndex(ms, args[1].(string))
	if i < 0 {
		mT := t.m.lookupType("reflect", "Method")
		if mT == nil {
			return nil, t.unsupported(t.g.top, "reflect.Method without package reflect's types")
		}
		return Tuple{mT.Zero(), false}, ctlNext
	}
	m, k := t.reflectMethod(rt, ms, i)
	if k != ctlNext {
		return nil, k
	}
	return Tuple{m, true}, ctlNext
}

func nativeReflectValueMethod(t *thread, args []Value) (Value, ctl) {
	v := unpackValue(args[0])
	if v.rt == nil {
		return nil, t.valueError("reflect.Value.Method", reflect.Invalid)
	}
	ms := reflectMethods(v.rt)
	i := toInt(args[1])
	if i < 0 || i >= len(ms) {
		return nil, t.stringPanic("reflect: Method index out of range")
	}
	return t.valueMethodOf(v, ms, i)
}

func nativeReflectValueMethodByName(t *thread, args []Value) (Value, ctl) {
	v := unpackValue(args[0])
	if v.rt == nil {
		return nil, t.valueError("reflect.Value.MethodByName", reflect.Invalid)
	}
	ms := reflectMethods(v.rt)
	i := methodIndex(ms, args[1].(string))
	if i < 0 {
		return packValue(rvalue{}), ctlNext
	}
	return t.valueMethodOf(v, ms, i)
}

func init() {
	def("(*reflect.rtype).Method", nativeReflectTypeMethod)
	def("(*reflect.rtype).MethodByName", nativeReflectTypeMethodByName)
	def("(reflect.Value).Method", nativeReflectValueMethod)
	def("(reflect.Value).MethodByName", nativeReflectValueMethodByName)
}
