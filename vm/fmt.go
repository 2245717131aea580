package vm

import (
	"fmt"
	"go/types"
	"reflect"
	"sort"
	"strconv"
	"strings"
)

// Native model of package fmt: formatting is done by Go's own fmt over a
// proxy (fmtArg) that formats a VM value the way fmt formats the Go value
// it stands for, calling Error and String methods in the VM.

type fmtArg struct {
	t        *thread
	v        Value
	rt       *RType
	depth    int
	exported bool // reached through exported fields only: methods may be called
}

func (t *thread) fmtArgOf(v Value) fmtArg {
	iv, _ := v.(Iface)
	return fmtArg{t: t, v: iv.V, rt: iv.T, exported: true}
}

// Format implements fmt.Formatter.
func (a fmtArg) Format(f fmt.State, verb rune) {
	if a.rt == nil {
		switch verb {
		case 'v', 's':
			fmt.Fprint(f, pad(f, "<nil>"))
		default:
			fmt.Fprintf(f, "%%!%c(<nil>)", verb)
		}
		return
	}
	if a.depth > 30 {
		fmt.Fprint(f, "...")
		return
	}
	if a.depth == 0 && a.rt.isReflectValue() {
		// fmt prints the value a reflect.Value holds
		v := unpackValue(a.v)
		if v.rt == nil {
			fmt.Fprint(f, "<invalid reflect.Value>")
			return
		}
		a.v, a.rt = a.t.rload(v), v.rt
		if iv, ok := a.v.(Iface); ok && v.kind() == reflect.Interface {
			if iv.T == nil {
				fmt.Fprint(f, "<nil>")
				return
			}
			a.v, a.rt = iv.V, iv.T
		}
		a.exported = v.flag&rflagRO == 0
		if !a.exported {
			a.formatValue(f, verb)
			return
		}
	}
	// fmt's handleMethods: Error and String are called for the string
	// verbs only; %d of a Stringer prints the number (a String method
	// formatting its receiver with %d would otherwise recurse forever).
	if stringVerb(verb) && !(verb == 'v' && f.Flag('#')) {
		if s, ok := a.method("Error"); ok {
			a.formatString(f, verb, s)
			return
		}
		if s, ok := a.method("String"); ok {
			a.formatString(f, verb, s)
			return
		}
	}
	a.formatValue(f, verb)
}

// stringVerb reports whether fmt formats a value with an Error or String
// method through that method for verb.
func stringVerb(verb rune) bool {
	switch verb {
	case 'v', 's', 'x', 'X', 'q':
		return true
	}
	return false
}

func (a fmtArg) formatString(f fmt.State, verb rune, s string) {
	switch verb {
	case 'v', 's', 'q', 'x', 'X':
		fmt.Fprintf(f, fmt.FormatString(f, verb), s)
	default:
		a.formatValue(f, verb)
	}
}

func pad(f fmt.State, s string) string {
	w, ok := f.Width()
	if !ok || len(s) >= w {
		return s
	}
	if f.Flag('-') {
		return s + strings.Repeat(" ", w-len(s))
	}
	return strings.Repeat(" ", w-len(s)) + s
}

// method calls a niladic string method (Error or String) of the value.
func (a fmtArg) method(name string) (string, bool) {
	m := a.rt.methodByName(name)
	if m == nil {
		return "", false
	}
	sig, ok := methodSig(a.rt, name)
	if !ok || sig.Params().Len() != 0 || sig.Results().Len() != 1 || basicKindOf(sig.Results().At(0).Type()) != types.String {
		return "", false
	}
	if p, ok := a.v.(Pointer); ok && p.Obj == 0 {
		if _, isPtr := a.rt.T.Underlying().(*types.Pointer); isPtr {
			return "<nil>", true
		}
	}
	v, ok := a.t.syncCall(m, []Value{a.v})
	if !ok {
		return "%!v(PANIC=" + name + " method)", true
	}
	s, _ := v.(string)
	return s, true
}

func methodSig(rt *RType, name string) (*types.Signature, bool) {
	ms := types.NewMethodSet(rt.T)
	for i := 0; i < ms.Len(); i++ {
		if ms.At(i).Obj().Name() == name {
			return ms.At(i).Type().(*types.Signature), true
		}
	}
	return nil, false
}

func (a fmtArg) child(v Value, rt *RType) fmtArg {
	return fmtArg{t: a.t, v: v, rt: rt, depth: a.depth + 1, exported: true}
}

func (a fmtArg) formatValue(f fmt.State, verb rune) {
	t := a.t
	sharp := verb == 'v' && f.Flag('#')
	plus := verb == 'v' && f.Flag('+')
	switch u := a.rt.T.Underlying().(type) {
	case *types.Basic:
		if u.Kind() == types.UnsafePointer {
			fmt.Fprintf(f, fmt.FormatString(f, verb), uintptr(addrOf(a.v)))
			return
		}
		if sharp && a.rt.T != u && u.Info()&types.IsNumeric != 0 {
			fmt.Fprintf(f, "%s(%v)", a.rt, a.v)
			return
		}
		fmt.Fprintf(f, fmt.FormatString(f, verb), a.v)
	case *types.Struct:
		cells := a.v.([]Value)
		if sharp {
			fmt.Fprint(f, a.rt.String())
		}
		fmt.Fprint(f, "{")
		for i := 0; i < u.NumFields(); i++ {
			if i > 0 {
				if sharp {
					fmt.Fprint(f, ", ")
				} else {
					fmt.Fprint(f, " ")
				}
			}
			fld := u.Field(i)
			if plus || sharp {
				fmt.Fprint(f, fld.Name()+":")
			}
			ft := t.m.types.get(fld.Type())
			off := a.rt.Fields[i]
			var fv Value
			if ft.Agg {
				fv = cells[off : off+ft.Size]
			} else {
				fv = cells[off]
			}
			c := a.child(fv, ft)
			c.exported = fld.Exported()
			c.formatElem(f, verb)
		}
		fmt.Fprint(f, "}")
	case *types.Array:
		cells := a.v.([]Value)
		if basicKindOf(u.Elem()) == types.Byte && (verb == 's' || verb == 'q' || verb == 'x' || verb == 'X') {
			// fmt prints a byte array as it prints a byte slice
			b := make([]byte, len(cells))
			for i, c := range cells {
				b[i] = c.(uint8)
			}
			fmt.Fprintf(f, fmt.FormatString(f, verb), b)
			return
		}
		es := a.rt.Elem.Size
		vals := make([]Value, a.rt.Len)
		for i := range vals {
			if a.rt.Elem.Agg {
				vals[i] = cells[i*es : (i+1)*es]
			} else {
				vals[i] = cells[i]
			}
		}
		a.formatList(f, verb, vals, a.rt.Elem, false)
	case *types.Slice:
		sl := a.v.(Slice)
		if basicKindOf(u.Elem()) == types.Byte && (verb == 's' || verb == 'q' || verb == 'x' || verb == 'X') {
			fmt.Fprintf(f, fmt.FormatString(f, verb), t.s.bytesOf(sl))
			return
		}
		if sharp && sl.Obj == 0 {
			fmt.Fprintf(f, "%s(nil)", a.rt)
			return
		}
		vals := make([]Value, sl.Len)
		for i := range vals {
			vals[i] = t.s.sliceElem(sl, a.rt.Elem, i)
		}
		a.formatList(f, verb, vals, a.rt.Elem, false)
	case *types.Map:
		m := a.v.(Map)
		if sharp {
			if m.Obj == 0 {
				fmt.Fprintf(f, "%s(nil)", a.rt)
				return
			}
			fmt.Fprint(f, a.rt.String())
			fmt.Fprint(f, "{")
		} else {
			fmt.Fprint(f, "map[")
		}
		if m.Obj != 0 {
			var ents []mapEntry
			for _, e := range t.s.heap.get(m.Obj).Map.ents {
				if !e.dead {
					ents = append(ents, e)
				}
			}
			sort.SliceStable(ents, func(i, j int) bool { return compareKeys(ents[i].k, ents[j].k) < 0 })
			for i, e := range ents {
				if i > 0 {
					if sharp {
						fmt.Fprint(f, ", ")
					} else {
						fmt.Fprint(f, " ")
					}
				}
				a.child(e.k, a.rt.Key).formatElem(f, verb)
				fmt.Fprint(f, ":")
				a.child(e.v, a.rt.Elem).formatElem(f, verb)
			}
		}
		if sharp {
			fmt.Fprint(f, "}")
		} else {
			fmt.Fprint(f, "]")
		}
	case *types.Pointer:
		p, ok := a.v.(Pointer)
		if !ok { // a reference the VM does not keep in its heap (a reflect.Type)
			a.fmtPointer(f, verb)
			return
		}
		if p.Obj == 0 {
			if sharp {
				fmt.Fprintf(f, "(%s)(nil)", a.rt)
				return
			}
			fmt.Fprint(f, pad(f, "<nil>"))
			return
		}
		if a.depth == 0 && (verb == 'v' || verb == 's') {
			switch u.Elem().Underlying().(type) {
			case *types.Struct, *types.Array, *types.Slice, *types.Map:
				fmt.Fprint(f, "&")
				a.child(t.s.readCells(p, a.rt.Elem), a.rt.Elem).formatValue(f, verb)
				return
			}
		}
		a.fmtPointer(f, verb)
	case *types.Interface:
		iv := a.v.(Iface)
		c := a.child(iv.V, iv.T)
		c.exported = a.exported
		c.formatElem(f, verb)
	case *types.Chan, *types.Signature:
		if isNilValue(a.v) {
			fmt.Fprint(f, pad(f, "<nil>"))
			return
		}
		a.fmtPointer(f, verb)
	default:
		fmt.Fprintf(f, "%v", a.v)
	}
}

func (a fmtArg) fmtPointer(f fmt.State, verb rune) {
	switch verb {
	case 'v', 'p', 's':
		fmt.Fprint(f, pad(f, fmt.Sprintf("0x%x", addrOf(a.v))))
	default:
		fmt.Fprintf(f, fmt.FormatString(f, verb), addrOf(a.v))
	}
}

// formatElem formats a nested value (methods are called only through
// exported fields, as fmt does).
func (a fmtArg) formatElem(f fmt.State, verb rune) {
	if a.rt == nil {
		fmt.Fprint(f, "<nil>")
		return
	}
	if _, isIface := a.rt.T.Underlying().(*types.Interface); isIface {
		a.formatValue(f, verb)
		return
	}
	if a.exported {
		a.Format(f, verb)
		return
	}
	a.formatValue(f, verb)
}

func (a fmtArg) formatList(f fmt.State, verb rune, vals []Value, elem *RType, _ bool) {
	sharp := verb == 'v' && f.Flag('#')
	if sharp {
		fmt.Fprint(f, a.rt.String()+"{")
	} else {
		fmt.Fprint(f, "[")
	}
	for i, v := range vals {
		if i > 0 {
			if sharp {
				fmt.Fprint(f, ", ")
			} else {
				fmt.Fprint(f, " ")
			}
		}
		c := a.child(v, elem)
		c.formatElem(f, verb)
	}
	if sharp {
		fmt.Fprint(f, "}")
	} else {
		fmt.Fprint(f, "]")
	}
}

// compareKeys orders map keys as fmt (internal/fmtsort) does.
func compareKeys(a, b Value) int {
	switch x := a.(type) {
	case string:
		return strings.Compare(x, b.(string))
	case float32, float64:
		fa, fb := toFloat64(a), toFloat64(b)
		switch {
		case fa < fb:
			return -1
		case fa > fb:
			return 1
		}
		return 0
	case bool:
		y := b.(bool)
		if x == y {
			return 0
		}
		if !x {
			return -1
		}
		return 1
	case int, int8, int16, int32, int64:
		ia, ib := toInt64(a), toInt64(b)
		switch {
		case ia < ib:
			return -1
		case ia > ib:
			return 1
		}
		return 0
	case uint, uint8, uint16, uint32, uint64, uintptr:
		ua, ub := toUint64(a), toUint64(b)
		switch {
		case ua < ub:
			return -1
		case ua > ub:
			return 1
		}
		return 0
	case []Value:
		y := b.([]Value)
		for i := range x {
			if c := compareKeys(x[i], y[i]); c != 0 {
				return c
			}
		}
		return 0
	case Iface:
		y := b.(Iface)
		if x.T == nil || y.T == nil {
			switch {
			case x.T == nil && y.T == nil:
				return 0
			case x.T == nil:
				return -1
			}
			return 1
		}
		if x.T != y.T {
			if x.T.ID < y.T.ID {
				return -1
			}
			return 1
		}
		return compareKeys(x.V, y.V)
	case Pointer:
		y := b.(Pointer)
		return int(x.Obj) - int(y.Obj)
	}
	return 0
}

// sprint formats operands as fmt.Sprint: spaces between operands when
// neither is a string.
func (t *thread) sprint(args []Value) string {
	var b strings.Builder
	prevString := false
	for i, a := range args {
		iv, _ := a.(Iface)
		isString := iv.T != nil && basicKindOf(iv.T.T) == types.String
		if i > 0 && !isString && !prevString {
			b.WriteByte(' ')
		}
		fmt.Fprintf(&b, "%v", t.fmtArgOf(a))
		prevString = isString
	}
	return b.String()
}

func (t *thread) sprintln(args []Value) string {
	var b strings.Builder
	for i, a := range args {
		if i > 0 {
			b.WriteByte(' ')
		}
		fmt.Fprintf(&b, "%v", t.fmtArgOf(a))
	}
	b.WriteByte('\n')
	return b.String()
}

// sprintf formats as fmt.Sprintf; %T and %p are resolved here because fmt
// handles them before calling Format, and %w is formatted as %v.
func (t *thread) sprintf(format string, args []Value) string {
	var out strings.Builder
	var goArgs []any
	argi := 0
	for i := 0; i < len(format); i++ {
		c := format[i]
		if c != '%' {
			out.WriteByte(c)
			continue
		}
		j := i + 1
		for j < len(format) && strings.IndexByte("+-# 0123456789.*[]", format[j]) >= 0 {
			if format[j] == '[' {
				k := strings.IndexByte(format[j:], ']')
				if k > 0 {
					if n, err := strconv.Atoi(format[j+1 : j+k]); err == nil {
						argi = n - 1
					}
				}
			}
			if format[j] == '*' && argi < len(args) {
				iv, _ := args[argi].(Iface)
				goArgs = append(goArgs, iv.V)
				argi++
			}
			j++
		}
		if j >= len(format) {
			out.WriteString(format[i:])
			break
		}
		verb := format[j]
		spec := format[i:j]
		spec = strings.Map(func(r rune) rune {
			if r == '[' || r == ']' {
				return -1
			}
			return r
		}, spec)
		if k := strings.IndexByte(spec, '['); k >= 0 {
			spec = spec[:k]
		}
		i = j
		if verb == '%' {
			out.WriteString("%%")
			continue
		}
		if argi >= len(args) {
			out.WriteString(spec + string(verb))
			argi++
			continue
		}
		a := args[argi]
		argi++
		iv, _ := a.(Iface)
		switch verb {
		case 'T':
			name := "<nil>"
			if iv.T != nil {
				name = iv.T.String()
			}
			out.WriteString(spec + "s")
			goArgs = append(goArgs, name)
		case 'p':
			out.WriteString(spec + "s")
			goArgs = append(goArgs, fmt.Sprintf("0x%x", addrOf(iv.V)))
		case 'w':
			out.WriteString(spec + "v")
			goArgs = append(goArgs, t.fmtArgOf(a))
		default:
			out.WriteString(spec + string(verb))
			goArgs = append(goArgs, t.fmtArgOf(a))
		}
	}
	if argi < len(args) {
		// extra arguments: let fmt report them
		for _, a := range args[argi:] {
			goArgs = append(goArgs, t.fmtArgOf(a))
		}
	}
	return fmt.Sprintf(out.String(), goArgs...)
}
