package slice_test

import (
	"fmt"
	"go/ast"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gmc-go/gmc/slice"
	"github.com/gmc-go/gmc/vm/load"
	"github.com/gmc-go/gmc/vm/loc"
	"golang.org/x/tools/go/ssa"
)

// marks reads "// in", "// out" and "// crit" comments of a testdata file:
// the expected slice written by hand.
func marks(t *testing.T, file string) (in, out []int, crit int) {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	for i, line := range strings.Split(string(data), "\n") {
		_, c, ok := strings.Cut(line, "// ")
		if !ok {
			continue
		}
		switch {
		case strings.HasPrefix(c, "in"):
			in = append(in, i+1)
		case strings.HasPrefix(c, "out"):
			out = append(out, i+1)
		case strings.HasPrefix(c, "crit"):
			crit = i + 1
		}
	}
	return
}

func loadDir(t *testing.T, dir string) *load.Program {
	t.Helper()
	p, err := load.Load(load.Config{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// instrAt returns the first instruction (in block order) of the root
// packages positioned on the given line of file.
func instrAt(t *testing.T, p *load.Program, file string, line int) loc.Loc {
	t.Helper()
	var best loc.Loc
	for _, r := range p.Roots {
		for _, m := range r.Members {
			fn, ok := m.(*ssa.Function)
			if !ok {
				continue
			}
			for _, f := range append([]*ssa.Function{fn}, fn.AnonFuncs...) {
				for _, b := range f.Blocks {
					for _, in := range b.Instrs {
						pos := p.Fset.Position(in.Pos())
						if pos.Line == line && filepath.Base(pos.Filename) == file && best.Fn == nil {
							best = loc.Of(in)
						}
					}
				}
			}
		}
	}
	if best.Fn == nil {
		t.Fatalf("no instruction at %s:%d", file, line)
	}
	return best
}

func lineSet(fset *token.FileSet, s *slice.Slice) map[int]bool {
	out := map[int]bool{}
	for _, pos := range s.Lines(fset) {
		out[pos.Line] = true
	}
	return out
}

func TestBackwardSlice(t *testing.T) {
	for _, name := range []string{"basic"} {
		t.Run(name, func(t *testing.T) {
			dir := filepath.Join("testdata", name)
			p := loadDir(t, dir)
			in, out, crit := marks(t, filepath.Join(dir, "main.go"))
			sp := slice.New(p.SSA)
			s := sp.Backward(instrAt(t, p, "main.go", crit))
			lines := lineSet(p.Fset, s)
			t.Logf("slice lines: %v (of %d locs)", lines, len(s.Locs))
			for _, l := range in {
				if !lines[l] {
					t.Errorf("line %d: want in slice, is not", l)
				}
			}
			for _, l := range out {
				if lines[l] {
					t.Errorf("line %d: want out of slice, is in", l)
				}
			}
		})
	}
}

var _ = ast.Inspect

// TestSharedGraph: New builds a program's call graph once and gives each
// caller a Program of its own over it (its own caches), from which the
// same slice comes; a slice computed on one leaves the other's caches empty.
func TestSharedGraph(t *testing.T) {
	dir := filepath.Join("testdata", "basic")
	p := loadDir(t, dir)
	_, _, crit := marks(t, filepath.Join(dir, "main.go"))
	a, b := slice.New(p.SSA), slice.New(p.SSA)
	if a == b || a.CG != b.CG {
		t.Fatalf("two slicings of one program: same Program %v, same graph %v (want distinct Programs over one graph)", a == b, a.CG == b.CG)
	}
	la := lineSet(p.Fset, a.Backward(instrAt(t, p, "main.go", crit)))
	lb := lineSet(p.Fset, b.Backward(instrAt(t, p, "main.go", crit)))
	if fmt.Sprint(la) != fmt.Sprint(lb) {
		t.Errorf("the two Programs slice differently: %v and %v", la, lb)
	}
}
