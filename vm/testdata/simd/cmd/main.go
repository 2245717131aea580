// Command cmd checks simd.Search (vm/natives_simd.go) against the
// module's pure-Go fallback (search.go, built where there is no assembly),
// copied here: the two agree on every key of a node-shaped slice.
package main

import (
	"fmt"

	"github.com/dgraph-io/ristretto/z/simd"
)

// fallback is ristretto's z/simd.Search for !amd64.
func fallback(xs []uint64, k uint64) int16 {
	if len(xs) < 8 || (len(xs)%8 != 0) {
		var i int
		for i = 0; i < len(xs); i += 2 {
			if xs[i] >= k {
				return int16(i / 2)
			}
		}
		return int16(i / 2)
	}
	for i := 0; i < len(xs); i += 8 {
		for d := 0; d < 8; d += 2 {
			if xs[i+d] >= k {
				return int16((i + d) / 2)
			}
		}
	}
	return int16(len(xs) / 2)
}

func main() {
	xs := make([]uint64, 32)
	for i := 0; i < 12; i++ {
		xs[2*i] = uint64(10 * (i + 1)) // keys 10..120, then zeros as in a node
		xs[2*i+1] = uint64(i)
	}
	same := true
	for k := uint64(0); k <= 130; k += 5 {
		if simd.Search(xs, k) != fallback(xs, k) {
			same = false
			fmt.Println("differ at", k, simd.Search(xs, k), fallback(xs, k))
		}
	}
	fmt.Println(same, simd.Search(xs, 35), simd.Search(xs, 1<<63), simd.Search(xs[:8], 100))
	// a length that is not a multiple of 8: the assembly reads on into the capacity
	fmt.Println(simd.Search(xs[:2], 30), simd.Search(xs[:2], 15))
}
