// Package xtestmain's TestMain is in its external test package
// (xtestmain_test), its test in the package itself: go test links both
// into one binary and initializes both packages before TestMain runs.
package xtestmain

// Two is what the test checks.
func Two() int { return 2 }
