package vm_test

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gmc-go/gmc/vm"
	"github.com/gmc-go/gmc/vm/load"
)

// TestImmutableGlobals: the globals never written after initialization
// are not hashed (unicode's tables the program reaches — the loader prunes
// the others —, a test's table of cases); a global
// written later, one written through a pointer to its type's field, one
// whose address is passed to a function, and one holding an interface are
// hashed.
func TestImmutableGlobals(t *testing.T) {
	prog, err := load.Load(load.Config{Dir: filepath.Join("testdata", "immutable")})
	if err != nil {
		t.Fatal(err)
	}
	m := vm.New(prog, vm.Options{})
	imm := m.ImmutableGlobals()
	t.Logf("%d immutable globals", len(imm))
	for _, want := range []string{"unicode.Upper", "unicode.Categories", "immutable.cases", "immutable.table"} {
		if !slices.Contains(imm, want) {
			t.Errorf("%s is hashed, want it immutable", want)
		}
	}
	for _, g := range imm {
		if strings.HasPrefix(g, "immutable.") && !slices.Contains([]string{"immutable.cases", "immutable.table"}, g) {
			t.Errorf("%s is not hashed, but the program changes it", g)
		}
	}
}
