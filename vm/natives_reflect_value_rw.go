package vm

import (
	"go/types"
	"reflect"
)

// The methods of reflect.Value that read and write the value it holds
// (natives_reflect_value.go has the representation).

// valueAccessors registers the methods that read a Value.
func valueAccessors() {
	valueMethod("IsValid", func(t *thread, v rvalue, _ []Value) (Value, ctl) { return v.rt != nil, ctlNext })
	valueMethod("Kind", func(t *thread, v rvalue, _ []Value) (Value, ctl) { return uint(v.kind()), ctlNext })
	valueMethod("Type", func(t *thread, v rvalue, _ []Value) (Value, ctl) {
		if v.rt == nil {
			return nil, t.valueError("reflect.Value.Type", reflect.Invalid)
		}
		r, ok := t.reflectPkgType(v.rt)
		if !ok {
			return nil, t.unsupported(t.g.top, "reflect.Type without package reflect's types")
		}
		return r, ctlNext
	})
	valueMethod("CanAddr", func(t *thread, v rvalue, _ []Value) (Value, ctl) { return v.flag&rflagAddr != 0, ctlNext })
	valueMethod("CanSet", func(t *thread, v rvalue, _ []Value) (Value, ctl) {
		return v.flag&(rflagAddr|rflagRO) == rflagAddr, ctlNext
	})
	valueMethod("CanInterface", func(t *thread, v rvalue, _ []Value) (Value, ctl) {
		if v.rt == nil {
			return nil, t.valueError("reflect.Value.CanInterface", reflect.Invalid)
		}
		return v.flag&rflagRO == 0, ctlNext
	})
	valueMethod("Interface", func(t *thread, v rvalue, _ []Value) (Value, ctl) {
		if v.rt == nil {
			return nil, t.valueError("reflect.Value.Interface", reflect.Invalid)
		}
		if v.flag&rflagRO != 0 {
			return nil, t.stringPanic("reflect.Value.Interface: cannot return value obtained from unexported field or method")
		}
		x := t.rload(v)
		if v.kind() == reflect.Interface {
			return x, ctlNext
		}
		return Iface{T: v.rt, V: x}, ctlNext
	})
	valueMethod("IsNil", func(t *thread, v rvalue, _ []Value) (Value, ctl) {
		switch v.kind() {
		case reflect.Chan, reflect.Func, reflect.Map, reflect.Pointer, reflect.UnsafePointer, reflect.Interface, reflect.Slice:
			return isNilValue(t.rload(v)), ctlNext
		}
		return nil, t.valueError("reflect.Value.IsNil", v.kind())
	})
	valueMethod("IsZero", func(t *thread, v rvalue, _ []Value) (Value, ctl) {
		if v.rt == nil {
			return nil, t.valueError("reflect.Value.IsZero", reflect.Invalid)
		}
		return isZeroValue(t.rload(v), v.rt), ctlNext
	})
	lenCap := func(name string, isCap bool, kinds ...reflect.Kind) {
		valueMethod(name, func(t *thread, v rvalue, _ []Value) (Value, ctl) {
			k := v.kind()
			if k == reflect.Pointer && v.rt.Elem != nil && reflectKind(v.rt.Elem.T) == uint(reflect.Array) {
				return v.rt.Elem.Len, ctlNext
			}
			for _, ok := range kinds {
				if k == ok {
					if k == reflect.Array {
						return v.rt.Len, ctlNext
					}
					return t.lenCap(t.rload(v), v.rt.T, isCap), ctlNext
				}
			}
			return nil, t.valueError("reflect.Value."+name, k)
		})
	}
	lenCap("Len", false, reflect.Array, reflect.Chan, reflect.Map, reflect.Slice, reflect.String)
	lenCap("Cap", true, reflect.Array, reflect.Chan, reflect.Slice)
	scalar := func(name string, conv func(x Value) Value, kinds ...reflect.Kind) {
		valueMethod(name, func(t *thread, v rvalue, _ []Value) (Value, ctl) {
			for _, k := range kinds {
				if v.kind() == k {
					return conv(t.rload(v)), ctlNext
				}
			}
			return nil, t.valueError("reflect.Value."+name, v.kind())
		})
	}
	scalar("Int", func(x Value) Value { return toInt64(x) },
		reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64)
	scalar("Uint", func(x Value) Value { return toUint64(x) },
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr)
	scalar("Float", func(x Value) Value {
		if f, ok := x.(float32); ok {
			return float64(f)
		}
		return x.(float64)
	}, reflect.Float32, reflect.Float64)
	scalar("Complex", func(x Value) Value {
		if c, ok := x.(complex64); ok {
			return complex128(c)
		}
		return x.(complex128)
	}, reflect.Complex64, reflect.Complex128)
	scalar("Bool", func(x Value) Value { return x.(bool) }, reflect.Bool)
	valueMethod("String", func(t *thread, v rvalue, _ []Value) (Value, ctl) {
		switch v.kind() {
		case reflect.Invalid:
			return "<invalid Value>", ctlNext
		case reflect.String:
			return t.rload(v).(string), ctlNext
		}
		return "<" + reflectTypeString(v.rt.T) + " Value>", ctlNext
	})
	valueMethod("Bytes", func(t *thread, v rvalue, _ []Value) (Value, ctl) {
		if v.kind() == reflect.Slice && basicKindOf(v.rt.Elem.T) == types.Byte {
			return t.rload(v), ctlNext
		}
		return nil, t.valueError("reflect.Value.Bytes", v.kind())
	})
	pointer := func(name string, asUintptr bool) {
		valueMethod(name, func(t *thread, v rvalue, _ []Value) (Value, ctl) {
			switch v.kind() {
			case reflect.Pointer, reflect.Chan, reflect.Map, reflect.UnsafePointer, reflect.Func, reflect.Slice:
				x := t.rload(v)
				if c, ok := x.(*Closure); ok && c != nil && c.Fn != nil && !asUintptr {
					// the same code pointer as Pointer's (fmt's %p of a
					// func reads it: testify's spew compared the two)
					return wildPtr{a: t.m.entryPC(c.Fn)}, ctlNext
				}
				if rt, ok := rtypeOfValue(x); ok {
					// a reflect.Type (an *rtype): the address of its
					// descriptor, the number of the type word of an
					// interface holding a value of the type (typeAddr), as
					// its data word read through unsafe is (dataWord).
					// hashicorp/go-msgpack keys its type infos by it: one
					// address for every type made every value a codec.Raw
					if asUintptr {
						return typeAddr(rt), ctlNext
					}
					return wildPtr{a: typeAddr(rt)}, ctlNext
				}
				if w, ok := x.(wildPtr); ok {
					// an address that names no variable (unsafe.Pointer(uintptr(1)):
					// kr/pretty's diff) is that number
					if asUintptr {
						return w.a, ctlNext
					}
					return w, ctlNext
				}
				if !asUintptr {
					return unsafePointerOf(x), ctlNext
				}
				if p, ok := x.(Pointer); ok {
					return t.s.addrOfPointer(p), ctlNext
				}
				if c, ok := x.(*Closure); ok && c.Fn != nil {
					// a func's code pointer: its entry PC, which
					// runtime.FuncForPC names as gc names the function
					return t.m.entryPC(c.Fn), ctlNext
				}
				if c, ok := x.(*Closure); ok && (c.Native == makeFuncStub || c.Native == boundMethodStub) {
					// a function MakeFunc made, or a method value
					// reflect made: the code of reflect's stub, as gc
					// gives it (go.uber.org/dig names every
					// constructor with FuncForPC, fx.Supply's made by
					// MakeFunc among them)
					rf := rfMakeFuncStub
					if c.Native == boundMethodStub {
						rf = rfMethodValueCall
					}
					return runtimePC(rf) - 1, ctlNext
				}
				if isNilValue(x) {
					return uintptr(0), ctlNext
				}
				return uintptr(addrOf(x)), ctlNext
			}
			return nil, t.valueError("reflect.Value."+name, v.kind())
		})
	}
	pointer("Pointer", true)
	pointer("UnsafePointer", false)
	valueMethod("NumMethod", func(t *thread, v rvalue, _ []Value) (Value, ctl) {
		if v.rt == nil {
			return nil, t.valueError("reflect.Value.NumMethod", reflect.Invalid)
		}
		return numMethod(v.rt), ctlNext
	})
}

// numMethod is reflect's Type.NumMethod: the methods of an interface, the
// exported methods of any other type's method set.
func numMethod(rt *RType) int {
	if it, ok := rt.T.Underlying().(*types.Interface); ok {
		return it.NumMethods()
	}
	r := rt.reg
	r.mu.Lock()
	ms := r.msets.MethodSet(rt.T)
	r.mu.Unlock()
	n := 0
	for i := 0; i < ms.Len(); i++ {
		if ms.At(i).Obj().Exported() {
			n++
		}
	}
	return n
}

// settableValue reports whether v may be written by reflect's method (panicking
// as reflect does when not).
func settableValue(t *thread, v rvalue, method string) (bool, ctl) {
	if v.flag&rflagRO != 0 {
		return false, t.stringPanic("reflect: " + method + " using value obtained using unexported field")
	}
	if v.flag&rflagAddr == 0 {
		return false, t.stringPanic("reflect: " + method + " using unaddressable value")
	}
	return true, ctlNext
}

// writeValue stores x into the variable v names (Value.Set and its kin).
func writeValue(t *thread, v rvalue, x Value) {
	if t.s.heap.get(v.ptr.Obj).shared {
		t.share(x)
	}
	t.rstore(v, x)
}

// valueMutators registers the methods of Value that write a variable.
func valueMutators() {
	valueMethod("Set", func(t *thread, v rvalue, args []Value) (Value, ctl) {
		if ok, k := settableValue(t, v, "reflect.Value.Set"); !ok {
			return nil, k
		}
		x := valueArg(args[0])
		if x.flag&rflagRO != 0 {
			return nil, t.stringPanic("reflect: reflect.Value.Set using value obtained using unexported field")
		}
		val, ok := t.assignValue(x, v.rt)
		if !ok {
			return nil, t.stringPanic("reflect.Set: value of type " + typeName(x.rt) + " is not assignable to type " + reflectTypeString(v.rt.T))
		}
		writeValue(t, v, val)
		return nil, ctlNext
	})
	valueMethod("SetBytes", func(t *thread, v rvalue, args []Value) (Value, ctl) {
		if ok, k := settableValue(t, v, "reflect.Value.SetBytes"); !ok {
			return nil, k
		}
		if v.kind() != reflect.Slice {
			return nil, t.valueError("reflect.Value.SetBytes", v.kind())
		}
		if basicKindOf(v.rt.T.Underlying().(*types.Slice).Elem()) != types.Uint8 {
			return nil, t.stringPanic("reflect.Value.SetBytes of non-byte slice")
		}
		writeValue(t, v, args[0])
		return nil, ctlNext
	})
	set := func(name string, kinds []reflect.Kind, conv func(x Value, to types.BasicKind) Value) {
		valueMethod(name, func(t *thread, v rvalue, args []Value) (Value, ctl) {
			if ok, k := settableValue(t, v, "reflect.Value."+name); !ok {
				return nil, k
			}
			for _, k := range kinds {
				if v.kind() == k {
					writeValue(t, v, conv(args[0], basicKindOf(v.rt.T)))
					return nil, ctlNext
				}
			}
			return nil, t.valueError("reflect.Value."+name, v.kind())
		})
	}
	numeric := func(from types.BasicKind) func(x Value, to types.BasicKind) Value {
		return func(x Value, to types.BasicKind) Value {
			v, _ := convertBasic(x, from, to)
			return v
		}
	}
	set("SetInt", []reflect.Kind{reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64}, numeric(types.Int64))
	set("SetUint", []reflect.Kind{reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr}, numeric(types.Uint64))
	set("SetFloat", []reflect.Kind{reflect.Float32, reflect.Float64}, numeric(types.Float64))
	set("SetComplex", []reflect.Kind{reflect.Complex64, reflect.Complex128}, numeric(types.Complex128))
	set("SetBool", []reflect.Kind{reflect.Bool}, func(x Value, _ types.BasicKind) Value { return x })
	set("SetString", []reflect.Kind{reflect.String}, func(x Value, _ types.BasicKind) Value { return x })
}

// rtypeOfValue returns the type a reflect.Type value x (an *rtype)
// names, if x is one.
func rtypeOfValue(x Value) (*RType, bool) {
	switch y := x.(type) {
	case rtypeRef:
		return y.rt, true
	case []Value:
		if len(y) > 0 {
			if r, ok := y[0].(rtypeRef); ok {
				return r.rt, true
			}
		}
	}
	return nil, false
}

// unsafePointerOf is the unsafe.Pointer reflect.Value.UnsafePointer
// returns for a pointer, channel, map, slice or func value x (fmt prints
// it with %p and %v): the object a pointer, slice, map or channel refers
// to; anything else the VM keeps outside its heap gets a fixed address
// outside every object, so that printing it is deterministic.
func unsafePointerOf(x Value) Pointer {
	switch y := x.(type) {
	case Pointer:
		return y
	case Slice:
		return Pointer{Obj: y.Obj, Off: y.Off}
	case Map:
		return Pointer{Obj: y.Obj}
	case Chan:
		return Pointer{Obj: y.Obj}
	}
	if isNilValue(x) {
		return Pointer{}
	}
	return Pointer{Off: 0x200}
}
