package vm

import "go/types"

// Error and string values made or read by natives. Packages errors and fmt
// run from their source; natives that return an error (the OS boundary,
// adapted functions) make an *errors.errorString as errors.New does, and
// natives that need an error's message call its Error method in the VM.

func (m *Machine) errorRType() *RType { return m.types.get(types.Universe.Lookup("error").Type()) }

func (m *Machine) stringRType() *RType { return m.types.get(types.Typ[types.String]) }

// stringPanic panics with a string value, as panic("msg") does.
func (t *thread) stringPanic(msg string) ctl {
	return t.doPanic(t.g.top, Iface{T: t.m.stringRType(), V: msg})
}

// newError makes an error value with message msg: an *errors.errorString,
// as errors.New(msg) makes, when package errors is in the program.
func (t *thread) newError(msg string) Value {
	if rt := t.m.lookupType("errors", "errorString"); rt != nil {
		p := t.alloc(rt)
		t.setCell(p, 0, msg)
		return Iface{T: t.m.types.get(types.NewPointer(rt.T)), V: p}
	}
	return Iface{T: t.m.rtError, V: msg}
}

// errorMessage calls err.Error() inside the current transition.
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

// errMethodFailed stops the run after a user method called by a native
// panicked or blocked.
func (t *thread) errMethodFailed(what string, iv Iface) ctl {
	if t.s.err != nil {
		return ctlStop
	}
	return t.unsupported(t.g.top, what+" method of "+iv.T.String()+" that blocks or panics")
}
