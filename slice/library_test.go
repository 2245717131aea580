package slice_test

import (
	"testing"

	"github.com/gmc-go/gmc/slice"
	"github.com/gmc-go/gmc/vm/load"
)

// TestLibrary: the standard library is opaque to the slice, a program is
// not — also in a module named without a dot (vm/testdata/poolmod's
// "module poolmod", whose import path looks like a standard library's);
// Open makes a library package transparent.
func TestLibrary(t *testing.T) {
	prog, err := load.Load(load.Config{Dir: "../vm/testdata/poolmod"})
	if err != nil {
		t.Fatal(err)
	}
	sp := slice.New(prog.SSA)
	main := prog.Roots[0].Func("main")
	if main == nil || sp.Library(main) {
		t.Fatalf("poolmod's main.main is library (%v)", main)
	}
	fmtPkg := prog.SSA.ImportedPackage("fmt")
	if fmtPkg == nil {
		t.Fatal("fmt not loaded")
	}
	println := fmtPkg.Func("Println")
	if !sp.Library(println) {
		t.Fatal("fmt.Println is not library")
	}
	sp.Open(println)
	if sp.Library(println) || sp.Library(fmtPkg.Func("Sprintf")) {
		t.Error("fmt is still library after Open")
	}
}
