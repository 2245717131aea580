package abstract

import (
	"fmt"
	"go/token"
	"io"
	"strings"

	"github.com/gmc-go/gmc/vm/loc"
	"golang.org/x/tools/go/ssa"
)

// NumEdges is |E_α|.
func (s *System) NumEdges() int {
	n := 0
	for _, es := range s.Edges {
		n += len(es)
	}
	return n
}

// Label is a short human description of an abstract location: its position,
// function and instruction.
func Label(fset *token.FileSet, l loc.Loc) string {
	in := l.Instr()
	text := "?"
	if in != nil {
		if v, ok := in.(ssa.Value); ok {
			text = v.Name() + " = " + v.String()
		} else {
			text = in.String()
		}
	}
	if len(text) > 60 {
		text = text[:57] + "..."
	}
	return fmt.Sprintf("%s %s: %s", Position(fset, l), l.Fn.Name(), text)
}

// Pos is the source position of an abstract location: for a branch, that of
// its condition; otherwise loc.Loc's.
func Pos(l loc.Loc) token.Pos {
	if i, ok := l.Instr().(*ssa.If); ok && i.Cond.Pos().IsValid() {
		return i.Cond.Pos()
	}
	return l.Pos()
}

// Position is Pos as "file.go:line:col" with the file's base name.
func Position(fset *token.FileSet, l loc.Loc) string {
	p := fset.Position(Pos(l))
	if !p.IsValid() {
		return "?"
	}
	return fmt.Sprintf("%s:%d:%d", loc.ShortName(fset, p.Filename), p.Line, p.Column)
}

// WriteText prints the abstract system and its trace sets.
func (s *System) WriteText(w io.Writer, fset *token.FileSet, sets []TraceSet) {
	id := map[loc.Loc]int{}
	for i, l := range s.order {
		id[l] = i
	}
	fmt.Fprintf(w, "abstract system: %d locations, %d edges, %d starts, %d targets\n",
		len(s.order), s.NumEdges(), len(s.Starts), len(s.Targets))
	for i, l := range s.order {
		n := s.Nodes[l]
		extra := ""
		if n.Kind&Branch != 0 {
			extra = fmt.Sprintf(" succ=%v", n.Succs)
		}
		if n.Lock != "" {
			extra += " lock=" + n.Lock
		}
		fmt.Fprintf(w, "  l%-3d %-22s %s%s\n", i, n.Kind, Label(fset, l), extra)
		for _, e := range s.Edges[l] {
			fmt.Fprintf(w, "         -> l%d %s%s\n", id[e.To], e.Kind, succText(e.Succ))
		}
	}
	for k, ts := range sets {
		fmt.Fprintf(w, "trace set %d: %d calls, %d locations\n", k+1, ts.Calls, ts.Len())
		for i, t := range ts.Traces {
			fmt.Fprintf(w, "  trace to target %d (%s):", i+1, Position(fset, t.Target()))
			for _, st := range t.Steps {
				fmt.Fprintf(w, " l%d", id[st.Loc])
				if st.Succ >= 0 {
					fmt.Fprintf(w, "[succ %d]", st.Succ)
				}
			}
			fmt.Fprintln(w)
		}
	}
	if len(sets) == 0 {
		fmt.Fprintln(w, "no abstract trace reaches every target")
	}
}

func succText(s int) string {
	if s < 0 {
		return ""
	}
	return fmt.Sprintf(" succ %d", s)
}

// WriteDot prints the abstract system as a Graphviz digraph; the locations of
// the first trace set are filled.
func (s *System) WriteDot(w io.Writer, fset *token.FileSet, sets []TraceSet) {
	onTrace := map[loc.Loc]bool{}
	if len(sets) > 0 {
		for _, t := range sets[0].Traces {
			for _, st := range t.Steps {
				onTrace[st.Loc] = true
			}
		}
	}
	id := map[loc.Loc]int{}
	fmt.Fprintln(w, "digraph abstract {")
	fmt.Fprintln(w, "  node [shape=box, fontname=\"monospace\"];")
	for i, l := range s.order {
		id[l] = i
		n := s.Nodes[l]
		style := ""
		if onTrace[l] {
			style = ", style=filled, fillcolor=lightblue"
		}
		if n.Kind&Target != 0 {
			style += ", peripheries=2"
		}
		fmt.Fprintf(w, "  l%d [label=%q%s];\n", i, fmt.Sprintf("l%d %s\n%s", i, n.Kind, Label(fset, l)), style)
	}
	for _, l := range s.order {
		for _, e := range s.Edges[l] {
			attr := ""
			switch e.Kind {
			case Call:
				attr = " [style=dashed, label=\"call\"]"
			case Spawn:
				attr = " [style=bold, label=\"go\"]"
			case Return:
				attr = " [style=dotted, label=\"return\"]"
			default:
				if e.Succ >= 0 {
					attr = fmt.Sprintf(" [label=\"succ %d\"]", e.Succ)
				}
			}
			fmt.Fprintf(w, "  l%d -> l%d%s;\n", id[l], id[e.To], attr)
		}
	}
	fmt.Fprintln(w, "}")
}

// String of a step for tests and logs: "kind@file:line".
func (st Step) Text(fset *token.FileSet) string {
	p := fset.Position(Pos(st.Loc))
	s := fmt.Sprintf("%s@%d", st.Kind, p.Line)
	if st.Succ >= 0 {
		s += fmt.Sprintf("/%d", st.Succ)
	}
	return s
}

// Text renders a trace as its steps' Text joined by spaces.
func (t Trace) Text(fset *token.FileSet) string {
	parts := make([]string, len(t.Steps))
	for i, st := range t.Steps {
		parts[i] = st.Text(fset)
	}
	return strings.Join(parts, " ")
}

// PositionOf formats a token.Pos as "file.go:line:col" with the file's base
// name.
func PositionOf(fset *token.FileSet, pos token.Pos) string {
	p := fset.Position(pos)
	if !p.IsValid() {
		return "?"
	}
	return fmt.Sprintf("%s:%d:%d", loc.ShortName(fset, p.Filename), p.Line, p.Column)
}
