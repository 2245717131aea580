package load

import "strings"

// partlyKept lists the stripped packages some of whose files are pure Go
// and interpreted from their source all the same: those files keep their
// bodies, the package counts as interpreted (its initializer runs, so its
// package-level variables hold their values) and the packages those files
// import are reachable (reach.go). A function of another file still has
// no body: calling it stops the run at the package's OS boundary.
var partlyKept = map[string]keptPart{
	"net": {
		why: "IP addresses, masks, CIDR and MAC parsing (mitchellh/mapstructure's " +
			"StringToIPHookFunc), SplitHostPort/JoinHostPort and TCP/UDP addresses (k8s.io/utils/net) " +
			"are pure Go, and so is net.Pipe, an in-memory connection of channels; sockets (a " +
			"connection's methods reach its file descriptor) and name resolution stay the OS boundary",
		files:   []string{"ip.go", "mac.go", "parse.go", "net.go", "pipe.go", "ipsock.go", "tcpsock.go", "udpsock.go"},
		imports: []string{"context", "errors", "internal/bytealg", "internal/godebug", "internal/poll", "internal/strconv", "internal/stringslite", "io", "net/netip", "os", "runtime", "sync", "syscall", "time"},
	},
}

// keptPart is what partlyKept keeps of a package.
type keptPart struct {
	why     string
	files   []string // base names of the files kept whole
	imports []string // the imports of those files and of the package's initializer
}

// keptFile reports whether the GOROOT file rel (relative to GOROOT/src)
// of a stripped package keeps its bodies (partlyKept).
func keptFile(rel string) bool {
	i := strings.LastIndexByte(rel, '/')
	if i < 0 {
		return false
	}
	pk, ok := partlyKept[rel[:i]]
	if !ok {
		return false
	}
	for _, f := range pk.files {
		if f == rel[i+1:] {
			return true
		}
	}
	return false
}

// keptImports returns the imports of a partly kept package that its kept
// files need (nil for another package).
func keptImports(pkg string) ([]string, bool) {
	pk, ok := partlyKept[pkg]
	return pk.imports, ok
}

// partlyLive reports whether pkg is a partly kept package the program
// reaches through code that runs (not only through stripped packages):
// its initializer runs, so its tables are kept and it is not pruned as a
// stripped package.
func partlyLive(pkg string, g *importGraph) bool {
	_, ok := partlyKept[pkg]
	return ok && !g.dead[pkg] && !g.unkept[pkg]
}
