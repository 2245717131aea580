package vm

import (
	"go/types"
	"reflect"
)

// Native model of reflect.Value.Call and CallSlice over VM functions.
//
// The function value is the VM's own closure (an interpreted function, a
// closure over its environment, a bound method or a native); Call checks
// the arguments as reflect does (count, assignability, with Go's panic
// messages), packs the variadic tail of Call into a slice, calls the
// function above a continuation frame and returns its results as a fresh
// []reflect.Value, each result a Value of the declared result type. The
// call itself is not a scheduling point: the callee's own operations are.
//
// reflect.MakeFunc returns a VM closure of the native makeFuncStub bound
// to the function's type and the implementation fn: called, it packs its
// arguments into reflect.Values, calls fn above a continuation frame and
// returns fn's results, checked as reflect checks them.

// makeFuncStub is the native behind every function made by MakeFunc.
var makeFuncStub = &nativeFunc{name: "reflect.makeFuncStub", fn: callMadeFunc}

func init() {
	def("reflect.MakeFunc", nativeReflectMakeFunc)
	valueMethod("Call", func(t *thread, v rvalue, args []Value) (Value, ctl) {
		return t.reflectCall(v, args[0], "Call", false)
	})
	valueMethod("CallSlice", func(t *thread, v rvalue, args []Value) (Value, ctl) {
		return t.reflectCall(v, args[0], "CallSlice", true)
	})
}

// reflectCall calls the function v describes with the reflect.Values of
// the slice in; isSlice is CallSlice (the last argument is the variadic
// slice itself).
func (t *thread) reflectCall(v rvalue, in Value, op string, isSlice bool) (Value, ctl) {
	if v.kind() != reflect.Func {
		return nil, t.valueError("reflect.Value."+op, v.kind())
	}
	if v.flag&rflagRO != 0 {
		return nil, t.stringPanic("reflect: reflect.Value." + op + " using value obtained using unexported field")
	}
	valueT := t.m.lookupType("reflect", "Value")
	sl, _ := in.(Slice)
	if valueT == nil {
		return nil, t.unsupported(t.g.top, "reflect.Value."+op+" without package reflect's types")
	}
	fn := t.rload(v)
	if c, _ := fn.(*Closure); c == nil {
		return nil, t.stringPanic("reflect: call of nil function")
	}
	sig := v.rt.T.Underlying().(*types.Signature)
	argv := make([]rvalue, sl.Len)
	for i := range argv {
		argv[i] = unpackValue(t.s.sliceElem(sl, valueT, i))
		if argv[i].rt == nil {
			return nil, t.stringPanic("reflect: " + op + " using zero Value argument")
		}
	}
	params := sig.Params()
	n := params.Len()
	variadic := sig.Variadic()
	switch {
	case isSlice && !variadic:
		return nil, t.stringPanic("reflect: CallSlice of non-variadic function")
	case isSlice && len(argv) < n:
		return nil, t.stringPanic("reflect: CallSlice with too few input arguments")
	case isSlice && len(argv) > n:
		return nil, t.stringPanic("reflect: CallSlice with too many input arguments")
	case !isSlice && variadic && len(argv) < n-1:
		return nil, t.stringPanic("reflect: Call with too few input arguments")
	case !isSlice && !variadic && len(argv) < n:
		return nil, t.stringPanic("reflect: Call with too few input arguments")
	case !isSlice && !variadic && len(argv) > n:
		return nil, t.stringPanic("reflect: Call with too many input arguments")
	}
	fixed := n
	if variadic && !isSlice {
		fixed = n - 1
	}
	callArgs := make([]Value, 0, n)
	for i := 0; i < fixed; i++ {
		pt := t.m.types.get(params.At(i).Type())
		x, ok := t.assignValue(argv[i], pt)
		if !ok {
			return nil, t.stringPanic("reflect: " + op + " using " + reflectTypeString(argv[i].rt.T) + " as type " + reflectTypeString(pt.T))
		}
		callArgs = append(callArgs, x)
	}
	if variadic && !isSlice {
		st := params.At(n - 1).Type().(*types.Slice)
		et := t.m.types.get(st.Elem())
		var rest []Value
		for i := fixed; i < len(argv); i++ {
			x, ok := t.assignValue(argv[i], et)
			if !ok {
				return nil, t.stringPanic("reflect: cannot use " + reflectTypeString(argv[i].rt.T) + " as type " + reflectTypeString(et.T) + " in " + op)
			}
			rest = append(rest, x)
		}
		if len(rest) == 0 {
			callArgs = append(callArgs, Slice{})
		} else {
			callArgs = append(callArgs, t.newSliceOf(et, rest))
		}
	}
	results := sig.Results()
	return nil, t.callCont(t.g.top, fn, callArgs, func(t *thread, res Value) ctl {
		out := make([]Value, results.Len())
		for i := range out {
			x := res
			if results.Len() > 1 {
				x = res.(Tuple)[i]
			}
			rt := t.m.types.get(results.At(i).Type())
			out[i] = packValue(t.newRValue(rt, x, 0))
		}
		return t.ret(t.g.top, t.newSliceOf(valueT, out))
	})
}

// callMadeFunc runs a function made by MakeFunc: args[0] is its binding
// (type and implementation), the rest the call's arguments.
func callMadeFunc(t *thread, args []Value) (Value, ctl) {
	bound, _ := args[0].([]Value)
	ref, _ := bound[0].(rtypeRef)
	sig := ref.rt.T.Underlying().(*types.Signature)
	valueT := t.m.lookupType("reflect", "Value")
	if valueT == nil {
		return nil, t.unsupported(t.g.top, "reflect.MakeFunc without package reflect's types")
	}
	in := make([]Value, sig.Params().Len())
	for i := range in {
		pt := t.m.types.get(sig.Params().At(i).Type())
		in[i] = packValue(t.newRValue(pt, args[1+i], 0))
	}
	results := sig.Results()
	return nil, t.callCont(t.g.top, bound[1], []Value{t.newSliceOf(valueT, in)}, func(t *thread, res Value) ctl {
		sl, _ := res.(Slice)
		if sl.Len != results.Len() {
			return t.stringPanic("reflect: wrong return count from function created by MakeFunc")
		}
		out := make([]Value, results.Len())
		for i := range out {
			v := unpackValue(t.s.sliceElem(sl, valueT, i))
			rt := t.m.types.get(results.At(i).Type())
			if v.rt == nil {
				return t.stringPanic("reflect: function created by MakeFunc using closure returned zero Value")
			}
			x, ok := t.assignValue(v, rt)
			if !ok {
				return t.stringPanic("reflect.MakeFunc: value of type " + reflectTypeString(v.rt.T) +
					" is not assignable to type " + reflectTypeString(rt.T))
			}
			out[i] = x
		}
		switch len(out) {
		case 0:
			return t.ret(t.g.top, nil)
		case 1:
			return t.ret(t.g.top, out[0])
		}
		return t.ret(t.g.top, Tuple(out))
	})
}

// nativeReflectMakeFunc is reflect.MakeFunc.
func nativeReflectMakeFunc(t *thread, args []Value) (Value, ctl) {
	rt := typeArg(args[0])
	if rt == nil {
		return nil, t.stringPanic("reflect: call of MakeFunc with non-Func type")
	}
	if _, ok := rt.T.Underlying().(*types.Signature); !ok {
		return nil, t.stringPanic("reflect: call of MakeFunc with non-Func type")
	}
	cl := &Closure{Native: makeFuncStub, Bound: []Value{rtypeRef{rt}, args[1]}}
	return packValue(t.newRValue(rt, cl, 0)), ctlNext
}
