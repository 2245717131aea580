package vm

import (
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// strippedInit is the initializer of a standard-library package whose
// bodies were stripped (natives model it): its own variables are left to
// the natives and globalInits, but the interpreted packages it imports,
// directly or through other stripped packages, are initialized, in import
// order, as Go initializes a package's imports before it. testing imports
// fmt: the testing natives format t.Errorf's message with fmt.Sprintf, whose
// printer pool fmt's initializer sets up, also in a test package that
// imports nothing but testing. Each interpreted initializer runs at most
// once (ssa's init guard), so calling one again is harmless.
func (m *Machine) strippedInit(f *ssa.Function) *nativeFunc {
	var inits []*ssa.Function
	seen := map[*types.Package]bool{}
	var walk func(p *types.Package)
	walk = func(p *types.Package) {
		for _, imp := range p.Imports() {
			if seen[imp] {
				continue
			}
			seen[imp] = true
			if !m.prog.Interpreted(imp.Path()) {
				walk(imp)
				continue
			}
			if sp := m.prog.SSA.Package(imp); sp != nil {
				if fn := sp.Func("init"); fn != nil {
					inits = append(inits, fn)
				}
			}
		}
	}
	if f.Pkg != nil {
		walk(f.Pkg.Pkg)
	}
	if len(inits) == 0 {
		return m.natives["<noop-init>"]
	}
	return &nativeFunc{name: "init", fn: func(t *thread, _ []Value) (Value, ctl) {
		return nil, t.callCont(t.g.top, m.funcValue(inits[0]), nil, func(t *thread, _ Value) ctl {
			self := t.own(t.g.top)
			t.g.top = self
			self.pc++
			if int(self.pc) < len(inits) {
				return t.callAbove(self, m.funcValue(inits[self.pc]), nil)
			}
			return t.ret(self, nil)
		})
	}}
}
