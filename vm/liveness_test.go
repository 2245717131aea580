package vm

import (
	"path/filepath"
	"testing"

	"github.com/gmc-go/gmc/vm/load"
	"golang.org/x/tools/go/ssa"
	"golang.org/x/tools/go/ssa/ssautil"
)

// TestLivenessTableInit: in an initializer that fills a table literal of
// 8192 constants (testdata/bigtable, as bits-and-blooms/bitset's two
// 65,536-entry tables), no constant, global or function register is ever
// live, so each instruction's live list stays a few registers long. When
// constants counted, the list at the entry held every one of them and
// bitset's initializer ran gmc out of memory (4 GB, computeLiveness).
func TestLivenessTableInit(t *testing.T) {
	prog, err := load.Load(load.Config{Dir: filepath.Join("testdata", "bigtable")})
	if err != nil {
		t.Fatal(err)
	}
	m := New(prog, Options{})
	var init *ssa.Function
	for _, p := range prog.SSA.AllPackages() {
		if p.Pkg.Path() == "bigtable" {
			init = p.Func("init")
		}
	}
	if init == nil {
		t.Fatal("bigtable's init not found")
	}
	var regOf map[ssa.Value]int
	compiledRegs = func(f *function, regs map[ssa.Value]int) {
		if f.ssa == init {
			regOf = regs
		}
	}
	defer func() { compiledRegs = nil }()
	f := m.compile(init)
	template := map[int]bool{}
	for v, r := range regOf {
		switch v.(type) {
		case *ssa.Const, *ssa.Global, *ssa.Function, *ssa.Builtin:
			template[r] = true
		}
	}
	if len(template) < 8192 {
		t.Fatalf("init has %d constant registers, want one per table element (8192 or more)", len(template))
	}
	longest, positions := 0, 0
	for bi, b := range f.blocks {
		for pc := range b.code {
			live, ok := f.liveRegs(bi, pc)
			if !ok {
				t.Fatalf("no liveness at block %d pc %d", bi, pc)
			}
			positions++
			longest = max(longest, len(live))
			for _, r := range live {
				if template[r] {
					t.Fatalf("block %d pc %d: template register r%d counted live", bi, pc, r)
				}
			}
		}
	}
	if positions < 16000 {
		t.Fatalf("init has %d positions, want the table's stores (16000 or more)", positions)
	}
	if longest > 8 {
		t.Errorf("longest live list: %d registers, want a few (the table's temporaries)", longest)
	}
}

// TestValueRegs: the registers valueRegs gives the parameters, free
// variables and value instructions of every function of a program are
// those compile gave them (liveness reads them from valueRegs, the
// compiler's map is not kept).
func TestValueRegs(t *testing.T) {
	prog, err := load.Load(load.Config{Dir: filepath.Join("testdata", "bigtable")})
	if err != nil {
		t.Fatal(err)
	}
	got := map[*function]map[ssa.Value]int{}
	compiledRegs = func(f *function, regs map[ssa.Value]int) { got[f] = regs }
	defer func() { compiledRegs = nil }()
	m := New(prog, Options{})
	for fn := range ssautil.AllFunctions(prog.SSA) {
		if len(fn.Blocks) > 0 && (fn.TypeParams().Len() == 0 || len(fn.TypeArgs()) > 0) { // (a generic body is never run)
			m.compile(fn)
		}
	}
	values := 0
	for f, regs := range got {
		vr := f.valueRegs()
		for v, r := range vr {
			values++
			if regs[v] != r {
				t.Fatalf("%s: %v has register %d, valueRegs says %d", f.ssa, v, regs[v], r)
			}
		}
		for v, r := range regs {
			if _, ok := vr[v]; !ok && r < len(vr) {
				t.Fatalf("%s: %v (register %d) missing from valueRegs", f.ssa, v, r)
			}
		}
	}
	if len(got) < 10 || values < 1000 {
		t.Fatalf("%d functions compiled, %d values: too few to test", len(got), values)
	}
}
