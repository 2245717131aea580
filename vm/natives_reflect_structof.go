package vm

import (
	"go/types"
	"strconv"
	"unicode"
)

// reflect.StructOf over the VM's types: the go/types struct of the fields
// (google/go-cmp's cmpopts.SortMaps builds one). The type registry makes
// it identical to a declared struct of the same fields, as Go's StructOf
// returns the compiled type when there is one. Go's panics are kept: a
// field without a name, with an invalid one, without a type, unexported
// without PkgPath, embedded with PkgPath, a duplicate name.

func init() {
	def("reflect.StructOf", nativeReflectStructOf)
}

// nativeReflectStructOf is reflect.StructOf(fields []reflect.StructField).
func nativeReflectStructOf(t *thread, args []Value) (Value, ctl) {
	sfT := t.m.lookupType("reflect", "StructField")
	if sfT == nil {
		return nil, t.unsupported(t.g.top, "reflect.StructField without package reflect's types")
	}
	sfS := sfT.T.Underlying().(*types.Struct)
	at := map[string]int{}
	for k := 0; k < sfS.NumFields(); k++ {
		at[sfS.Field(k).Name()] = sfT.Fields[k]
	}
	sl, _ := args[0].(Slice)
	var vars []*types.Var
	var tags []string
	seen := map[string]bool{}
	for i := 0; i < sl.Len; i++ {
		cells, _ := t.s.sliceElem(sl, sfT, i).([]Value)
		name, _ := cells[at["Name"]].(string)
		pkgPath, _ := cells[at["PkgPath"]].(string)
		tag, _ := cells[at["Tag"]].(string)
		embedded, _ := cells[at["Anonymous"]].(bool)
		ft := typeArg(cells[at["Type"]])
		switch {
		case name == "":
			return nil, t.stringPanic("reflect.StructOf: field " + strconv.Itoa(i) + " has no name")
		case !validFieldName(name):
			return nil, t.stringPanic("reflect.StructOf: field " + strconv.Itoa(i) + " has invalid name")
		case ft == nil:
			return nil, t.stringPanic("reflect.StructOf: field " + strconv.Itoa(i) + " has no type")
		case embedded && pkgPath != "":
			return nil, t.stringPanic("reflect.StructOf: field \"" + name + "\" is anonymous but has PkgPath set")
		case pkgPath == "" && (name[0] == '_' || 'a' <= name[0] && name[0] <= 'z'):
			return nil, t.stringPanic("reflect.StructOf: field \"" + name + "\" is unexported but missing PkgPath")
		case seen[name]:
			return nil, t.stringPanic("reflect.StructOf: duplicate field " + name)
		}
		seen[name] = true
		var pkg *types.Package
		if pkgPath != "" {
			pkg = t.m.packageByPath(pkgPath)
		}
		vars = append(vars, types.NewField(0, pkg, name, ft.T, embedded))
		tags = append(tags, tag)
	}
	return t.reflectTypeResult(types.NewStruct(vars, tags))
}

// validFieldName is reflect's isValidFieldName: a letter or underscore,
// then letters, digits and underscores.
func validFieldName(name string) bool {
	for i, c := range name {
		if i == 0 && !(c == '_' || unicode.IsLetter(c)) {
			return false
		}
		if !(c == '_' || unicode.IsLetter(c) || unicode.IsDigit(c)) {
			return false
		}
	}
	return len(name) > 0
}

// packageByPath is the program's package of import path path (a new one
// if the program has none: the unexported fields of a StructOf type are
// then of a package of their own, as in Go).
func (m *Machine) packageByPath(path string) *types.Package {
	for _, p := range m.prog.SSA.AllPackages() {
		if reflectPkgPath(p.Pkg) == path {
			return p.Pkg
		}
	}
	return types.NewPackage(path, path)
}
