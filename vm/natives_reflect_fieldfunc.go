package vm

import (
	"go/types"
	"reflect"
)

// Type.FieldByNameFunc and Value.FieldByNameFunc: reflect's breadth-first
// search of a struct's fields and the fields of its embedded structs,
// calling the program's match on every field name of a depth, in
// reflect's order, until a depth where it matches (github.com/jinzhu/copier
// finds fields by a case-insensitive name). One match at that depth is
// the field; a second one, or one in a struct embedded twice at that
// depth, hides it (not found).

func init() {
	rtypeMethod("FieldByNameFunc", func(t *thread, rt *RType, args []Value) (Value, ctl) {
		if _, ok := rt.T.Underlying().(*types.Struct); !ok {
			return nil, t.stringPanic("reflect: FieldByNameFunc of non-struct type " + reflectTypeString(rt.T))
		}
		return t.fieldByNameFunc(rt.T, args[0], func(t *thread, index []int) (Value, ctl) {
			if index == nil {
				zero := t.m.lookupType("reflect", "StructField")
				if zero == nil {
					return nil, t.unsupported(t.g.top, "reflect.StructField without package reflect's types")
				}
				return Tuple{zero.Zero(), false}, ctlNext
			}
			sf, k := t.structFieldByIndex(rt, index)
			if k != ctlNext {
				return nil, k
			}
			return Tuple{sf, true}, ctlNext
		})
	})
	valueMethod("FieldByNameFunc", func(t *thread, v rvalue, args []Value) (Value, ctl) {
		if v.kind() != reflect.Struct {
			return nil, t.valueError("reflect.Value.FieldByNameFunc", v.kind())
		}
		return t.fieldByNameFunc(v.rt.T, args[0], func(t *thread, index []int) (Value, ctl) {
			if index == nil {
				return packValue(rvalue{}), ctlNext
			}
			f, k := t.fieldByIndexValue(v, index)
			if k != ctlNext {
				return nil, k
			}
			return packValue(f), ctlNext
		})
	})
}

// fieldCand is a field FieldByNameFunc asks match about: its name, its
// index path, the depth it is at, and whether its struct is embedded
// more than once at that depth.
type fieldCand struct {
	name  string
	index []int
	depth int
	dup   bool
}

// fieldCands lists the fields of struct type st in the order reflect's
// FieldByNameFunc visits them, depth by depth.
func fieldCands(st types.Type) []fieldCand {
	type scan struct {
		t     types.Type
		index []int
	}
	var out []fieldCand
	next := []scan{{st, nil}}
	nextCount := map[string]int{}
	visited := map[string]bool{}
	for depth := 0; len(next) > 0; depth++ {
		current, count := next, nextCount
		next, nextCount = nil, map[string]int{}
		for _, sc := range current {
			key := types.TypeString(sc.t, nil)
			if visited[key] {
				continue
			}
			visited[key] = true
			s := sc.t.Underlying().(*types.Struct)
			for i := 0; i < s.NumFields(); i++ {
				f := s.Field(i)
				index := append(append([]int(nil), sc.index...), i)
				out = append(out, fieldCand{name: f.Name(), index: index, depth: depth, dup: count[key] > 1})
				if !f.Embedded() {
					continue
				}
				ft := f.Type()
				if p, ok := ft.Underlying().(*types.Pointer); ok {
					ft = p.Elem()
				}
				if _, ok := ft.Underlying().(*types.Struct); !ok {
					continue
				}
				fk := types.TypeString(ft, nil)
				if nextCount[fk] > 0 {
					nextCount[fk] = 2 // embedded again at the next depth: it hides its fields
					continue
				}
				nextCount[fk] = 1
				if count[key] > 1 {
					nextCount[fk] = 2 // (reached through a struct that is itself there twice)
				}
				next = append(next, scan{ft, index})
			}
		}
	}
	return out
}

// fieldByNameFunc calls match on the field names of struct type st as
// reflect's FieldByNameFunc does, then done with the index path of the
// field found (nil: none). The calls run above a continuation frame whose
// pc counts them; the field matched so far at the current depth is kept
// in a cell of the VM's heap (states that branch between two calls each
// have their own).
func (t *thread) fieldByNameFunc(st types.Type, match Value, done func(t *thread, index []int) (Value, ctl)) (Value, ctl) {
	cands := fieldCands(st)
	if len(cands) == 0 {
		return done(t, nil)
	}
	found := t.alloc(t.m.types.get(types.Typ[types.Int])) // 1 + the candidate matched at this depth; 0 none
	finish := func(t *thread, cf *frame, index []int) ctl {
		v, k := done(t, index)
		if k != ctlNext {
			return k
		}
		return t.ret(cf, v)
	}
	return nil, t.callCont(t.g.top, match, []Value{cands[0].name}, func(t *thread, res Value) ctl {
		cf := t.g.top
		k := int(cf.pc)
		cf.pc++
		c := cands[k]
		f := toInt(t.cell(found, 0))
		if b, _ := res.(bool); b {
			if c.dup || f != 0 {
				return finish(t, cf, nil) // hidden by another of that name at this depth
			}
			f = k + 1
			t.setCell(found, 0, f)
		}
		if k+1 == len(cands) || cands[k+1].depth != c.depth {
			if f != 0 {
				return finish(t, cf, cands[f-1].index)
			}
			if k+1 == len(cands) {
				return finish(t, cf, nil)
			}
		}
		return t.callAbove(cf, match, []Value{cands[k+1].name})
	})
}
