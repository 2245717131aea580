// Package cgo reads a C variable and calls a C function; a third function
// is plain Go in the same package.
package cgo

/*
int counter = 1;
static int add(int a) { return a + 1; }
*/
import "C"

// Counter reads the C variable.
func Counter() int { return int(C.counter) }

// SetCounter writes it.
func SetCounter(v int) { C.counter = C.int(v) }

// Add calls C.
func Add(a int) int { return int(C.add(C.int(a))) }

// Twice is Go.
func Twice(a int) int { return 2 * a }
