// Package httptestonly imports net/http only in a test, as x/sync's
// errgroup does for an example: net/http stays stripped whole
// (TestHTTPVars).
package httptestonly

// Two is 2.
func Two() int { return 2 }
