package vm_test

import "testing"

// TestSimdSearch: dgraph-io/ristretto's z/simd.Search (assembly on amd64)
// agrees with the module's pure-Go fallback on every key of a node-shaped
// slice (testdata/simd stands in for the module: a bodiless Search). Its
// B-tree tests stopped at "call of simd.Search (no body and no model)"
// once the []uint64 views of z.BytesToUint64Slice ran.
func TestSimdSearch(t *testing.T) {
	if got := runMainOutput(t, "testdata/simd/cmd"); got != "true 3 16 4\n2 1\n" {
		t.Errorf("output %q, want %q", got, "true 3 16 4\n2 1\n")
	}
}
