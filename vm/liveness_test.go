package vm

import (
	"path/filepath"
	"testing"

	"github.com/gmc-go/gmc/vm/load"
	"golang.org/x/tools/go/ssa"
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
	f := m.compile(init)
	template := map[int]bool{}
	for v, r := range f.regOf {
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
