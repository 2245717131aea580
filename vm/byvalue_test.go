package vm

import (
	"go/types"
	"path/filepath"
	"testing"

	"github.com/gmc-go/gmc/vm/load"
	"golang.org/x/tools/go/ssa"
)

// TestByValueAnalysis checks byvalue.go's two analyses on the memory
// model's tests (testdata/race/memmodel): the variables and channels they
// leave out of the race detector are those of the race-free cases, and in
// every racy case the variable or channel the race is on is kept (TestMemoryModel
// checks those races are still reported).
func TestByValueAnalysis(t *testing.T) {
	prog, err := load.Load(load.Config{Dir: filepath.Join("testdata", "race", "memmodel")})
	if err != nil {
		t.Fatal(err)
	}
	// per test: variable name → captured by value; and for the channel
	// stored in a variable, variable name → never closed
	vars := map[string]map[string]bool{
		"TestNoRaceCapturedReadOnly":         {"x": true, "s": true, "done": true},
		"TestRaceCapturedWrittenAfter":       {"x": false, "done": true},
		"TestRaceCapturedWrittenInBranch":    {"x": false},
		"TestRaceCapturedWrittenByClosure":   {"x": false},
		"TestRaceCapturedAddressTaken":       {"x": false},
		"TestRaceLoopVarWrittenAfterCapture": {"i": false},
		"TestRaceChanSendCloseCaptured":      {"c": true, "done": true},
	}
	chans := map[string]map[string]bool{
		"TestNoRaceCapturedReadOnly":     {"done": true},
		"TestRaceCapturedWrittenAfter":   {"done": true},
		"TestRaceChanSendCloseCaptured":  {"c": false, "done": true},
		"TestRaceChanSendCloseByCallee":  {"c": false, "done": true},
		"TestRaceChanSendCloseInClosure": {"c": false, "done": true},
		"TestRaceChanSendCloseField":     {"sem": true, "jobs": false, "done": true},
	}
	m := New(prog, Options{})
	var pkg *ssa.Package
	for _, p := range prog.Roots {
		if p.Func("TestNoRaceCapturedReadOnly") != nil {
			pkg = p
		}
	}
	if pkg == nil {
		t.Fatal("memmodel's tests not loaded")
	}
	for name, want := range vars {
		fn := pkg.Func(name)
		got := map[string]bool{}
		for _, b := range fn.Blocks {
			for _, in := range b.Instrs {
				if a, ok := in.(*ssa.Alloc); ok {
					if _, asked := want[a.Comment]; asked {
						v := m.capturedByValue(a)
						if prev, seen := got[a.Comment]; seen {
							v = v && prev // (a variable of each iteration: all must be)
						}
						got[a.Comment] = v
					}
				}
			}
		}
		for v, w := range want {
			if g, ok := got[v]; !ok || g != w {
				t.Errorf("%s: variable %s captured by value = %v (found %v), want %v", name, v, g, ok, w)
			}
		}
	}
	for name, want := range chans {
		fn := pkg.Func(name)
		got := map[string]bool{}
		for _, b := range fn.Blocks {
			for _, in := range b.Instrs {
				mk, ok := in.(*ssa.MakeChan)
				if !ok {
					continue
				}
				for _, r := range *mk.Referrers() {
					if st, ok := r.(*ssa.Store); ok {
						switch a := st.Addr.(type) {
						case *ssa.Alloc:
							got[a.Comment] = m.neverClosed(mk)
						case *ssa.FieldAddr: // (named by the field)
							st := a.X.Type().Underlying().(*types.Pointer).Elem().Underlying().(*types.Struct)
							got[st.Field(a.Field).Name()] = m.neverClosed(mk)
						}
					}
				}
			}
		}
		for v, w := range want {
			if g, ok := got[v]; !ok || g != w {
				t.Errorf("%s: channel %s never closed = %v (found %v), want %v", name, v, g, ok, w)
			}
		}
	}
}

// TestByValueBigBlock: deciding the variables of unicode's initializer
// (testdata/immutable reaches unicode.Categories: one block of about
// 70,000 instructions and 7,000 variables, none captured) needs no
// instruction positions (TestByValueAnalysis checks the blocks where a
// variable is written after its capture). Before, every write of every variable scanned
// its block for its position: about two seconds of CPU at the start of
// every run of a program that reaches unicode's tables (regexp, text/template).
func TestByValueBigBlock(t *testing.T) {
	prog, err := load.Load(load.Config{Dir: filepath.Join("testdata", "immutable")})
	if err != nil {
		t.Fatal(err)
	}
	m := New(prog, Options{})
	allocs := 0
	for _, b := range prog.SSA.ImportedPackage("unicode").Func("init").Blocks {
		for _, in := range b.Instrs {
			if a, ok := in.(*ssa.Alloc); ok {
				allocs++
				m.capturedByValue(a)
			}
		}
	}
	if allocs < 1000 {
		t.Fatalf("unicode.init has %d variables: not the big block this test is about", allocs)
	}
	if len(m.blockPos) != 0 {
		t.Errorf("positions computed for %d blocks of unicode.init, want none (no variable there is captured)", len(m.blockPos))
	}
}
