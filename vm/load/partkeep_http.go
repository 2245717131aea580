package load

import "golang.org/x/tools/go/packages"

// net/http's pure parts, kept as net's are (partkeep.go): a handler called
// directly with an httptest.ResponseRecorder and a Request the test builds
// (rs/zerolog's hlog tests, testify's HTTP assertions) runs no socket.
// Servers, listeners, clients and the transport stay stripped: calling
// them stops the entry at the OS boundary.
//
// The kept files cost startup (their bodies, net/http's initializer and
// the packages they import: +50 % CPU and +100 MB for x/sync's errgroup
// TestZeroGroup, whose tests import net/http for an example), so they are
// kept only in a program whose own code imports net/http/httptest, the
// package of handlers called directly (gates), or whose packages' own
// code, not only their tests, imports net/http (libGates: such code may
// read the variables net/http's initializer sets): in any other program
// net/http is stripped whole, as before.

// gates maps a partly kept package to the package the program's code must
// import for its files to be kept.
var gates = map[string]string{
	"net/http":                "net/http/httptest",
	"net/http/httptest":       "net/http/httptest",
	"net/http/internal/ascii": "net/http/httptest",
	"net/http/internal":       "net/http/httptest",
}

// libGates maps a partly kept package to the package whose import by the
// code of a package outside the standard library (not its tests) keeps
// its files too: such code may read net/http's variables, which only
// net/http's initializer sets (k8s.io/apimachinery's util/net asserts
// http.DefaultTransport.(*http.Transport) in its own initializer: nil in
// a net/http stripped whole, a false panic in every test of every package
// that imports it). A test that imports net/http for an example
// (x/sync's errgroup) still pays nothing.
var libGates = map[string]string{
	"net/http":                "net/http",
	"net/http/httptest":       "net/http",
	"net/http/internal/ascii": "net/http",
	"net/http/internal":       "net/http",
}

// closedGates lists the gated packages whose gate package no package
// outside the standard library imports, and whose library gate no such
// package's own code imports.
func closedGates(all map[string]*packages.Package, std func(*packages.Package) bool) map[string]bool {
	open, libOpen := map[string]bool{}, map[string]bool{}
	for _, p := range all {
		if std(p) {
			continue
		}
		lib := p.ID == p.PkgPath // not a test variant (those are "p [p.test]", "p_test [p.test]")
		for path := range p.Imports {
			open[path] = true
			if lib {
				libOpen[path] = true
			}
		}
	}
	closed := map[string]bool{}
	for pkg, gate := range gates {
		if !open[gate] && !libOpen[libGates[pkg]] {
			closed[pkg] = true
		}
	}
	return closed
}

func init() {
	partlyKept["net/http"] = keptPart{
		why: "headers, status texts, content sniffing, cookies, the Request and Response types and their bodies are pure Go; " +
			"servers, clients and the transport stay the OS boundary",
		files: []string{"header.go", "status.go", "method.go", "http.go", "sniff.go", "request.go", "cookie.go",
			"transfer.go", "response.go", // http.ReadRequest's body (httptest.NewRequest), the Response a recorder makes
			"pattern.go", "routing_tree.go", "routing_index.go", "servemux121.go"}, // ServeMux's routing
		imports: []string{"bufio", "bytes", "context", "encoding/base64", "encoding/binary", "errors", "fmt", "io",
			"maps", "net/http/internal/ascii", "net/textproto", "net/url", "slices", "strconv", "strings", "sync",
			"time", "unicode/utf8", "golang.org/x/net/http/httpguts", "vendor/golang.org/x/net/http/httpguts",
			"log", "net", // cookie.go's
			"net/http/internal", // transfer.go's chunked bodies
			"unicode", "sort",   // pattern.go's, servemux121.go's
			// the package initializer's calls in the other files (h2_bundle.go's os.Getenv,
			// transfer.go's reflect.TypeOf, the godebug settings)
			"os", "reflect", "internal/godebug"},
	}
	partlyKept["net/http/httptest"] = keptPart{
		why: "the ResponseRecorder and NewRequest (http.ReadRequest of a request line) are pure Go; " +
			"the test servers listen on sockets",
		files: []string{"recorder.go", "httptest.go"},
		// (httptest.go's crypto/tls is not listed: NewRequest only makes a
		// tls.ConnectionState for an https target, a type of the stripped
		// package)
		imports: []string{"bufio", "bytes", "context", "fmt", "io", "net/http", "net/textproto", "strconv", "strings", "golang.org/x/net/http/httpguts", "vendor/golang.org/x/net/http/httpguts"},
	}
	partlyKept["net/http/internal"] = keptPart{
		why:     "chunked transfer encoding over a bufio.Reader, pure Go",
		files:   []string{"chunked.go"},
		imports: []string{"bufio", "bytes", "errors", "fmt", "io"},
	}
	partlyKept["net/http/internal/ascii"] = keptPart{
		why:     "ASCII case folding, pure Go",
		files:   []string{"print.go"},
		imports: []string{"strings", "unicode"},
	}
	// server.go's pure helpers a handler calls, and ServeMux (a handler
	// test routes its requests through one: go-chi's middleware tests)
	for _, f := range []string{"HandlerFunc.ServeHTTP", "Error", "NotFound", "NotFoundHandler",
		"StripPrefix", "Redirect", "htmlEscape", "redirectHandler.ServeHTTP", "RedirectHandler",
		"NewServeMux", "cleanPath", "stripHostPort", "exactMatch", "Handle", "HandleFunc",
		"ServeMux.Handler", "ServeMux.findHandler", "ServeMux.matchOrRedirect", "ServeMux.matchingMethods",
		"ServeMux.ServeHTTP", "ServeMux.Handle", "ServeMux.HandleFunc", "ServeMux.register", "ServeMux.registerErr"} {
		keepBodies["net/http."+f] = true
	}
	keepBodies["net/http.defaultTransportDialContext"] = true // DefaultTransport's initializer: a method value
	keepBodies["net/http.basicAuth"] = true                   // client.go's, for (*Request).SetBasicAuth (didip/tollbooth's tests)
}
