package vm

import (
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// Variables with //go:embed directives hold, before any initializer runs,
// the files the go command embeds (load.Embed): a string or []byte
// variable the contents of its one file, an embed.FS its files and
// directories, laid out as package embed's own (which runs from its
// source):
//
//	type FS struct{ files *[]file }
//	type file struct{ name, data string; hash [16]byte }
//
// The hash is left zero (embed only reports it through no exported API).

// initEmbed fills global g's object o with its embedded content, if g has
// a //go:embed directive.
func (m *Machine) initEmbed(g *ssa.Global, o *Object) {
	e := m.prog.Embeds[g.Pkg.Pkg.Path()+"."+g.Name()]
	if e == nil || len(o.Cells) == 0 {
		return
	}
	t := g.Type().(*types.Pointer).Elem()
	if isStringType(t) || isByteSlice(t) {
		var data string
		for _, f := range e.Files {
			if f.Name != "" && f.Name[len(f.Name)-1] != '/' {
				data = f.Data
				break
			}
		}
		if isStringType(t) {
			o.Cells[0] = data
			return
		}
		cells := make([]Value, len(data))
		for i := 0; i < len(data); i++ {
			cells[i] = data[i]
		}
		id := m.base.alloc(&Object{T: m.byteType(), Cells: cells, shared: true}, 0)
		o.Cells[0] = Slice{Obj: id, Len: len(data), Cap: len(data)}
		return
	}
	named, ok := t.(*types.Named)
	if !ok || named.Obj().Pkg() == nil || named.Obj().Pkg().Path() != "embed" || named.Obj().Name() != "FS" {
		return
	}
	frt := m.namedType("embed", "file")
	if frt == nil {
		return
	}
	st := frt.T.Underlying().(*types.Struct)
	var cells []Value
	for _, f := range e.Files {
		fc := cellsOf(frt)
		for i := 0; i < st.NumFields(); i++ {
			switch st.Field(i).Name() {
			case "name":
				fc[frt.Fields[i]] = f.Name
			case "data":
				fc[frt.Fields[i]] = f.Data
			}
		}
		cells = append(cells, fc...)
	}
	arr := m.base.alloc(&Object{T: frt, Cells: cells, shared: true}, 0)
	srt := m.types.get(types.NewSlice(frt.T))
	sv := m.base.alloc(&Object{T: srt, Cells: []Value{Slice{Obj: arr, Len: len(e.Files), Cap: len(e.Files)}}, shared: true}, 0)
	o.Cells[0] = Pointer{Obj: sv}
}
