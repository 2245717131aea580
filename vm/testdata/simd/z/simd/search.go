// Package simd stands in for github.com/dgraph-io/ristretto/z/simd, whose
// Search is assembly on amd64 (vm/natives_simd.go).
package simd

// Search finds the first idx for which xs[idx] >= k in xs.
func Search(xs []uint64, k uint64) int16
