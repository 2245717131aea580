package vm

import (
	"go/types"
	"strings"
)

// Native model of package errors. Its bodies are not interpreted (its
// initializer needs internal/reflectlite), so every exported function and
// the methods of its two error types are modelled here over the VM's own
// types:
//
//	*errors.errorString: cell 0 = the message
//	*errors.joinError:   cell 0 = the []error of the joined errors
//
// Is and As walk the Unwrap chains (Unwrap() error and Unwrap() []error,
// depth first) and call the user's Is, As and Unwrap methods with
// t.syncCall; a method that panics or blocks stops the run as unsupported.
// errors.AsType is generic and therefore interpreted.

// errorsMaxDepth bounds the Unwrap chains walked by Is and As (a cycle of
// Unwrap methods would otherwise loop forever).
const errorsMaxDepth = 10000

func (m *Machine) errorIface() *types.Interface {
	return types.Universe.Lookup("error").Type().Underlying().(*types.Interface)
}

func (m *Machine) errorRType() *RType { return m.types.get(types.Universe.Lookup("error").Type()) }

func (m *Machine) stringRType() *RType { return m.types.get(types.Typ[types.String]) }

// stringPanic panics with a string value, as panic("msg") does.
func (t *thread) stringPanic(msg string) ctl {
	return t.doPanic(t.g.top, Iface{T: t.m.stringRType(), V: msg})
}

// ifaceMethod returns the method name of iv's dynamic type if its
// signature satisfies ok, or nil.
func ifaceMethod(iv Iface, name string, ok func(sig *types.Signature) bool) Value {
	if iv.T == nil {
		return nil
	}
	sig, found := methodSig(iv.T, name)
	if !found || !ok(sig) {
		return nil
	}
	return iv.T.methodByName(name)
}

func isErrorType(t types.Type) bool {
	return types.Identical(t, types.Universe.Lookup("error").Type())
}

func sigIs(sig *types.Signature) bool { // Is(error) bool
	return sig.Params().Len() == 1 && isErrorType(sig.Params().At(0).Type()) &&
		sig.Results().Len() == 1 && basicKindOf(sig.Results().At(0).Type()) == types.Bool
}

func sigAs(sig *types.Signature) bool { // As(any) bool
	if sig.Params().Len() != 1 || sig.Results().Len() != 1 || basicKindOf(sig.Results().At(0).Type()) != types.Bool {
		return false
	}
	it, ok := sig.Params().At(0).Type().Underlying().(*types.Interface)
	return ok && it.Empty()
}

func sigUnwrap1(sig *types.Signature) bool { // Unwrap() error
	return sig.Params().Len() == 0 && sig.Results().Len() == 1 && isErrorType(sig.Results().At(0).Type())
}

func sigUnwrapN(sig *types.Signature) bool { // Unwrap() []error
	if sig.Params().Len() != 0 || sig.Results().Len() != 1 {
		return false
	}
	s, ok := sig.Results().At(0).Type().(*types.Slice)
	return ok && isErrorType(s.Elem())
}

// errMethodFailed stops the run after a user method called by a native
// panicked or blocked.
func (t *thread) errMethodFailed(what string, iv Iface) ctl {
	if t.s.err != nil {
		return ctlStop
	}
	return t.unsupported(t.g.top, what+" method of "+iv.T.String()+" that blocks or panics")
}

// unwrap returns the errors err wraps: (next, nil) for Unwrap() error,
// (_, list) for Unwrap() []error; multi reports which one applied.
func (t *thread) unwrap(err Iface) (next Iface, list []Value, multi bool, k ctl) {
	if m := ifaceMethod(err, "Unwrap", sigUnwrap1); m != nil {
		v, ok := t.syncCall(m, []Value{err.V})
		if !ok {
			return Iface{}, nil, false, t.errMethodFailed("Unwrap", err)
		}
		next, _ = v.(Iface)
		return next, nil, false, ctlNext
	}
	if m := ifaceMethod(err, "Unwrap", sigUnwrapN); m != nil {
		v, ok := t.syncCall(m, []Value{err.V})
		if !ok {
			return Iface{}, nil, true, t.errMethodFailed("Unwrap", err)
		}
		sl, _ := v.(Slice)
		return Iface{}, append([]Value(nil), t.s.sliceCells(sl, t.m.errorRType())...), true, ctlNext
	}
	return Iface{}, nil, false, ctlNext
}

// errorsIs implements errors.is.
func (t *thread) errorsIs(err, target Iface, comparable bool, depth int) (bool, ctl) {
	for ; depth < errorsMaxDepth; depth++ {
		if comparable && equal(err, target) {
			return true, ctlNext
		}
		if m := ifaceMethod(err, "Is", sigIs); m != nil {
			v, ok := t.syncCall(m, []Value{err.V, target})
			if !ok {
				return false, t.errMethodFailed("Is", err)
			}
			if b, _ := v.(bool); b {
				return true, ctlNext
			}
		}
		next, list, multi, k := t.unwrap(err)
		if k != ctlNext {
			return false, k
		}
		if multi {
			for _, e := range list {
				ei, _ := e.(Iface)
				if ei.T == nil {
					continue
				}
				found, k := t.errorsIs(ei, target, comparable, depth+1)
				if found || k != ctlNext {
					return found, k
				}
			}
			return false, ctlNext
		}
		if next.T == nil {
			return false, ctlNext
		}
		err = next
	}
	return false, ctlNext
}

// errorsAs implements errors.as: target is the *T (as an any), p its
// pointer and elem the type T.
func (t *thread) errorsAs(err Iface, target Iface, p Pointer, elem *RType, depth int) (bool, ctl) {
	for ; depth < errorsMaxDepth; depth++ {
		if types.AssignableTo(err.T.T, elem.T) {
			var v Value = err
			if !types.IsInterface(elem.T) {
				v = err.V
			}
			if t.s.heap.get(p.Obj).shared {
				t.share(v)
			}
			t.s.writeCells(p, elem, v)
			return true, ctlNext
		}
		if m := ifaceMethod(err, "As", sigAs); m != nil {
			v, ok := t.syncCall(m, []Value{err.V, target})
			if !ok {
				return false, t.errMethodFailed("As", err)
			}
			if b, _ := v.(bool); b {
				return true, ctlNext
			}
		}
		next, list, multi, k := t.unwrap(err)
		if k != ctlNext {
			return false, k
		}
		if multi {
			for _, e := range list {
				ei, _ := e.(Iface)
				if ei.T == nil {
					continue
				}
				found, k := t.errorsAs(ei, target, p, elem, depth+1)
				if found || k != ctlNext {
					return found, k
				}
			}
			return false, ctlNext
		}
		if next.T == nil {
			return false, ctlNext
		}
		err = next
	}
	return false, ctlNext
}

// errorMessage calls err.Error().
func (t *thread) errorMessage(err Iface) (string, ctl) {
	if err.T == nil {
		return "", t.runtimePanic(t.g.top, "invalid memory address or nil pointer dereference")
	}
	if err.T == t.m.rtError {
		s, _ := err.V.(string)
		return s, ctlNext
	}
	s, ok := t.callStringMethod(err, "Error")
	if !ok {
		return "", t.errMethodFailed("Error", err)
	}
	return s, ctlNext
}

func init() {
	def("errors.New", nativeErrorsNew)
	def("(*errors.errorString).Error", nativeErrorsErrorStringError)
	def("errors.Unwrap", nativeErrorsUnwrap)
	def("errors.Is", nativeErrorsIs)
	def("errors.As", nativeErrorsAs)
	def("errors.Join", nativeErrorsJoin)
	def("(*errors.joinError).Error", nativeErrorsJoinErrorError)
	def("(*errors.joinError).Unwrap", nativeErrorsJoinErrorUnwrap)
	globalInits["errors.ErrUnsupported"] = func(m *Machine, o *Object) {
		rt := m.lookupType("errors", "errorString")
		if rt == nil {
			return
		}
		id := m.base.alloc(&Object{T: rt, Cells: []Value{"unsupported operation"}, shared: true}, 0)
		o.Cells[0] = Iface{T: m.types.get(types.NewPointer(rt.T)), V: Pointer{Obj: id}}
	}
}

// nativeErrorsNew is errors.New.
func nativeErrorsNew(t *thread, args []Value) (Value, ctl) {
	return t.newError(args[0].(string)), ctlNext
}

// nativeErrorsErrorStringError is (*errors.errorString).Error.
func nativeErrorsErrorStringError(t *thread, args []Value) (Value, ctl) {
	p := ptrArg(args[0])
	if p.Obj == 0 {
		return nil, t.runtimePanic(t.g.top, "invalid memory address or nil pointer dereference")
	}
	return t.cell(p, 0), ctlNext
}

// nativeErrorsUnwrap is errors.Unwrap.
func nativeErrorsUnwrap(t *thread, args []Value) (Value, ctl) {
	err, _ := args[0].(Iface)
	if ifaceMethod(err, "Unwrap", sigUnwrap1) == nil {
		return Iface{}, ctlNext
	}
	next, _, _, k := t.unwrap(err)
	return next, k
}

// nativeErrorsJoinErrorUnwrap is (*errors.joinError).Unwrap.
func nativeErrorsJoinErrorUnwrap(t *thread, args []Value) (Value, ctl) {
	p := ptrArg(args[0])
	if p.Obj == 0 {
		return nil, t.runtimePanic(t.g.top, "invalid memory address or nil pointer dereference")
	}
	return t.cell(p, 0), ctlNext
}

// nativeErrorsIs is errors.Is.
func nativeErrorsIs(t *thread, args []Value) (Value, ctl) {
	err, _ := args[0].(Iface)
	target, _ := args[1].(Iface)
	if err.T == nil || target.T == nil {
		return err.T == nil && target.T == nil, ctlNext
	}
	return t.errorsIs(err, target, types.Comparable(target.T.T), 0)
}

// nativeErrorsAs is errors.As.
func nativeErrorsAs(t *thread, args []Value) (Value, ctl) {
	err, _ := args[0].(Iface)
	target, _ := args[1].(Iface)
	if err.T == nil {
		return false, ctlNext
	}
	if target.T == nil {
		return nil, t.stringPanic("errors: target cannot be nil")
	}
	pt, isPtr := target.T.T.Underlying().(*types.Pointer)
	p, _ := target.V.(Pointer)
	if !isPtr || p.Obj == 0 {
		return nil, t.stringPanic("errors: target must be a non-nil pointer")
	}
	if !types.IsInterface(pt.Elem()) && !types.Implements(pt.Elem(), t.m.errorIface()) {
		return nil, t.stringPanic("errors: *target must be interface or implement error")
	}
	return t.errorsAs(err, target, p, t.m.types.get(pt.Elem()), 0)
}

// nativeErrorsJoin is errors.Join.
func nativeErrorsJoin(t *thread, args []Value) (Value, ctl) {
	var errs []Value
	for _, e := range t.sliceValues(args[0]) {
		if iv, _ := e.(Iface); iv.T != nil {
			errs = append(errs, iv)
		}
	}
	if len(errs) == 0 {
		return Iface{}, ctlNext
	}
	rt := t.m.lookupType("errors", "joinError")
	if rt == nil {
		return nil, t.unsupported(t.g.top, "errors.Join without package errors")
	}
	p := t.alloc(rt)
	t.setCell(p, 0, t.newSliceOf(t.m.errorRType(), errs))
	return Iface{T: t.m.types.get(types.NewPointer(rt.T)), V: p}, ctlNext
}

// nativeErrorsJoinErrorError is (*errors.joinError).Error.
func nativeErrorsJoinErrorError(t *thread, args []Value) (Value, ctl) {
	p := ptrArg(args[0])
	if p.Obj == 0 {
		return nil, t.runtimePanic(t.g.top, "invalid memory address or nil pointer dereference")
	}
	sl, _ := t.cell(p, 0).(Slice)
	var parts []string
	for _, e := range t.sliceValues(sl) {
		s, k := t.errorMessage(e.(Iface))
		if k != ctlNext {
			return nil, k
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, "\n"), ctlNext
}
