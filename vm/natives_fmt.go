package vm

import (
	"go/types"
	"strings"
)

// writeTo writes data to an io.Writer value: os.Stdout/os.Stderr directly,
// any other writer through its Write method.
func (t *thread) writeTo(w Value, data string) (int, ctl) {
	iv, _ := w.(Iface)
	if p, ok := iv.V.(Pointer); ok && iv.T != nil && iv.T.String() == "*os.File" {
		if fd := t.osFileFD(p); fd == 1 || fd == 2 {
			t.s.write(fd, data) // the program's output, without running os
			return len(data), ctlNext
		}
	}
	if iv.T == nil {
		return 0, t.runtimePanic(t.g.top, "invalid memory address or nil pointer dereference")
	}
	m := iv.T.methodByName("Write")
	if m == nil {
		return 0, t.unsupported(t.g.top, "writer "+iv.T.String())
	}
	if _, ok := t.syncCall(m, []Value{iv.V, t.newBytes([]byte(data))}); !ok {
		return 0, t.unsupported(t.g.top, "Write method of "+iv.T.String()+" that blocks or panics")
	}
	return len(data), ctlNext
}

// osFileFD returns the descriptor of the *os.File at p (-1: none).
func (t *thread) osFileFD(p Pointer) int {
	if p.Obj == 0 {
		return -1
	}
	fp, _ := t.cell(p, 0).(Pointer) // File{*file}
	frt := t.m.namedType("os", "file")
	prt := t.m.namedType("internal/poll", "FD")
	if fp.Obj == 0 || frt == nil || prt == nil {
		return -1
	}
	off, _, ok := t.m.testField(frt, "pfd")
	off2, _, ok2 := t.m.testField(prt, "Sysfd")
	if !ok || !ok2 {
		return -1
	}
	return toInt(t.cell(Pointer{Obj: fp.Obj, Off: fp.Off + off + off2}, 0))
}

// newError makes an error value with message msg (an *errors.errorString
// when package errors is loaded).
func (t *thread) newError(msg string) Value {
	if rt := t.m.lookupType("errors", "errorString"); rt != nil {
		p := t.alloc(rt)
		t.setCell(p, 0, msg)
		return Iface{T: t.m.types.get(types.NewPointer(rt.T)), V: p}
	}
	return Iface{T: t.m.rtError, V: msg}
}

func init() {
	def("fmt.Println", nativeFmtPrintln)
	def("fmt.Print", nativeFmtPrint)
	def("fmt.Printf", nativeFmtPrintf)
	def("fmt.Sprintln", nativeFmtSprintln)
	def("fmt.Sprint", nativeFmtSprint)
	def("fmt.Sprintf", nativeFmtSprintf)
	fprint := func(f func(t *thread, args []Value) string) func(t *thread, args []Value) (Value, ctl) {
		return func(t *thread, args []Value) (Value, ctl) {
			s := f(t, args)
			n, k := t.writeTo(args[0], s)
			return Tuple{n, Iface{}}, k
		}
	}
	def("fmt.Fprintln", fprint(func(t *thread, args []Value) string { return t.sprintln(t.sliceValues(args[1])) }))
	def("fmt.Fprint", fprint(func(t *thread, args []Value) string { return t.sprint(t.sliceValues(args[1])) }))
	def("fmt.Fprintf", fprint(func(t *thread, args []Value) string {
		return t.sprintf(args[1].(string), t.sliceValues(args[2]))
	}))
	def("fmt.Errorf", nativeFmtErrorf)
	def("(*fmt.wrapError).Error", nativeFmtWrapErrorError)
	def("(*fmt.wrapError).Unwrap", nativeFmtWrapErrorUnwrap)
	def("(*fmt.wrapErrors).Error", nativeFmtWrapErrorsError)
	def("(*fmt.wrapErrors).Unwrap", nativeFmtWrapErrorsUnwrap)
}

// nativeFmtPrintln is fmt.Println.
func nativeFmtPrintln(t *thread, args []Value) (Value, ctl) {
	s := t.sprintln(t.sliceValues(args[0]))
	t.s.write(1, s)
	return Tuple{len(s), Iface{}}, ctlNext
}

// nativeFmtPrint is fmt.Print.
func nativeFmtPrint(t *thread, args []Value) (Value, ctl) {
	s := t.sprint(t.sliceValues(args[0]))
	t.s.write(1, s)
	return Tuple{len(s), Iface{}}, ctlNext
}

// nativeFmtPrintf is fmt.Printf.
func nativeFmtPrintf(t *thread, args []Value) (Value, ctl) {
	s := t.sprintf(args[0].(string), t.sliceValues(args[1]))
	t.s.write(1, s)
	return Tuple{len(s), Iface{}}, ctlNext
}

// nativeFmtSprintln is fmt.Sprintln.
func nativeFmtSprintln(t *thread, args []Value) (Value, ctl) {
	return t.sprintln(t.sliceValues(args[0])), ctlNext
}

// nativeFmtSprint is fmt.Sprint.
func nativeFmtSprint(t *thread, args []Value) (Value, ctl) {
	return t.sprint(t.sliceValues(args[0])), ctlNext
}

// nativeFmtSprintf is fmt.Sprintf.
func nativeFmtSprintf(t *thread, args []Value) (Value, ctl) {
	return t.sprintf(args[0].(string), t.sliceValues(args[1])), ctlNext
}

// nativeFmtWrapErrorError is (*fmt.wrapError).Error.
func nativeFmtWrapErrorError(t *thread, args []Value) (Value, ctl) {
	return t.cell(ptrArg(args[0]), 0), ctlNext
}

// nativeFmtWrapErrorUnwrap is (*fmt.wrapError).Unwrap.
func nativeFmtWrapErrorUnwrap(t *thread, args []Value) (Value, ctl) {
	return t.cell(ptrArg(args[0]), 1), ctlNext
}

// nativeFmtWrapErrorsError is (*fmt.wrapErrors).Error.
func nativeFmtWrapErrorsError(t *thread, args []Value) (Value, ctl) {
	return t.cell(ptrArg(args[0]), 0), ctlNext
}

// nativeFmtWrapErrorsUnwrap is (*fmt.wrapErrors).Unwrap.
func nativeFmtWrapErrorsUnwrap(t *thread, args []Value) (Value, ctl) {
	return t.cell(ptrArg(args[0]), 1), ctlNext
}

// nativeFmtErrorf is fmt.Errorf.
func nativeFmtErrorf(t *thread, args []Value) (Value, ctl) {
	format := args[0].(string)
	vals := t.sliceValues(args[1])
	msg := t.sprintf(format, vals)
	var wrapped []Value
	if strings.Contains(format, "%w") {
		// the operands of %w verbs, in order
		argi := 0
		for i := 0; i < len(format); i++ {
			if format[i] != '%' {
				continue
			}
			j := i + 1
			for j < len(format) && strings.IndexByte("+-# 0123456789.", format[j]) >= 0 {
				j++
			}
			if j >= len(format) {
				break
			}
			if format[j] == '%' {
				i = j
				continue
			}
			if format[j] == 'w' && argi < len(vals) {
				if iv, ok := vals[argi].(Iface); ok && iv.T != nil {
					wrapped = append(wrapped, vals[argi])
				}
			}
			argi++
			i = j
		}
	}
	switch len(wrapped) {
	case 0:
		return t.newError(msg), ctlNext
	case 1:
		if rt := t.m.lookupType("fmt", "wrapError"); rt != nil {
			p := t.alloc(rt)
			t.setCell(p, 0, msg)
			t.setCell(p, 1, wrapped[0])
			return Iface{T: t.m.types.get(types.NewPointer(rt.T)), V: p}, ctlNext
		}
	default:
		if rt := t.m.lookupType("fmt", "wrapErrors"); rt != nil {
			p := t.alloc(rt)
			t.setCell(p, 0, msg)
			errT := t.m.types.get(types.Universe.Lookup("error").Type())
			t.setCell(p, 1, t.newSliceOf(errT, wrapped))
			return Iface{T: t.m.types.get(types.NewPointer(rt.T)), V: p}, ctlNext
		}
	}
	return t.newError(msg), ctlNext
}
