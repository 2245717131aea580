package vm

import "golang.org/x/tools/go/ssa"

// math/rand and math/rand/v2 run from their source. Their only link to the
// runtime is runtime_rand (runtime.rand by linkname), the source of the
// top-level functions of math/rand/v2 and of math/rand (Go's default
// GODEBUG randautoseed=1: math/rand's runtimeSource) and of hash/maphash's
// seeds. Here it is the SplitMix64 sequence of a counter kept in a cell of
// the state (Machine.linkRand, as the runtime's fastrand pulled by linkname
// in natives_linkname.go): a run is determined by its choices, and a
// replay draws what the search drew.
//
// math/rand's global generator was once Go's seeded with 1 (as with
// GODEBUG=randautoseed=0): a lockedSource, whose mutex orders every two
// goroutines that draw (happens-before edges Go's default generator does
// not make, which could hide a race) and whose 607-word state is an object
// a draw copies and the race summary reads again: a test whose workers
// sleep random durations (x/sync's semaphore TestWeighted) spent half its
// search on it (benchmarks/RESULTS.md, session 13).

func init() {
	def("math/rand.runtime_rand", nativeLinkFastrand64)
	def("math/rand/v2.runtime_rand", nativeLinkFastrand64)
	def("hash/maphash.runtime_rand", nativeLinkFastrand64)
	def("hash/maphash.runtime_memhash", nativeLinkMemhash)
}

// randPackages are the packages whose natives draw from Machine.linkRand.
var randPackages = []string{"math/rand", "math/rand/v2", "hash/maphash"}

// usesRandPackage reports whether the program holds one of randPackages.
func usesRandPackage(prog *ssa.Program) bool {
	for _, path := range randPackages {
		if prog.ImportedPackage(path) != nil {
			return true
		}
	}
	return false
}
