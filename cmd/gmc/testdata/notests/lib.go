// Package notests has no main function and no tests: gmc check says
// "[no test files]" and exits 0, as go test does (TestNoTestFiles).
package notests

// F is not checked.
func F() int { return 1 }
