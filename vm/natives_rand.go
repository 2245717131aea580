package vm

import "golang.org/x/tools/go/ssa"

// math/rand and math/rand/v2 run from their source. Their only link to the
// runtime is runtime_rand (runtime.rand by linkname), the source of the
// top-level functions of math/rand/v2 (and of math/rand's when GODEBUG
// randautoseed is not 0) and of hash/maphash's seeds. Here it is the
// SplitMix64 sequence of a counter kept in a cell of the state
// (Machine.linkRand, as the runtime's fastrand pulled by linkname in
// natives_linkname.go): a run is determined by its choices, and a replay
// draws what the search drew. math/rand's own global generator is Go's
// seeded with 1, as with GODEBUG=randautoseed=0 (internal/godebug's
// randautoseed reads "0": natives_std.go), so its values are those of a
// Go program run with that setting.

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
