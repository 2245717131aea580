package vm_test

import (
	"testing"

	"github.com/gmc-go/gmc/vm/load"
)

// TestUnsafeView: typed views of memory as dgraph-io/ristretto takes them
// (testdata/unsafeview: z.BytesToUint64Slice's []uint64 over a []byte, the
// bbloom bit set's bytes inside uint64 cells, numbers read and written
// through pointers of another width, unsafe.Slice of another width and fmt
// of a view's elements through reflect) print what `go run` prints, and a
// view of memory that is not numbers of one width stops as unsupported.
func TestUnsafeView(t *testing.T) {
	cases := []unsafeCase{
		{"bytes-as-words", "4 4 513 255 0\n[8 7 6 5 4 3 2 1 254 255 255 255 255 255 255 255]\ntrue 255\n513 255 true [1 2]\n7 2 2\ntrue\ntrue\n", ""},
		{"words-u32", "1 42 4294967295 3 42\n", ""},
		{"bloom", "true false true true false\n8000000000000209 8000001000000001\n[9 2 0 0 0 0 0 128 1 0 0 0 16 0 0 128]\ntrue true true\n", ""},
		{"cast-width", "8070605040302010\n[16 32 48 64 239 190 173 222 9]\nabcd000000000000 5\n7 -1\n-9223372036854775799 true\n", ""},
		{"unsafe-slice-view", "[1 2] 0 2\n[4 3] [1 772] [1 304]\n[8 7 6 5 4 3 2 1] [8 7 6 5 4 3 2 1]\n[772 0 0 0]\n1020304ddccbbaa [1 0]\n", ""},
		{"view-of-struct", "", "unsupported: a load through address 0x"},
	}
	prog, err := load.Load(load.Config{Dir: "testdata/unsafeview"})
	if err != nil {
		t.Fatal(err)
	}
	runUnsafeCases(t, prog, cases)
}
