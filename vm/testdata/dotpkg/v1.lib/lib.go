// Package lib lives in a directory whose name holds a dot: gc escapes
// that dot as %2e in the names of its functions.
package lib

import "runtime"

// T has a method, named with the escaped path too.
type T struct{}

// Name returns its own name as runtime.FuncForPC reports it.
func (T) Name() string {
	pc, _, _, _ := runtime.Caller(0)
	return runtime.FuncForPC(pc).Name()
}

// Hello returns its own name as runtime.FuncForPC reports it.
func Hello() string {
	pc, _, _, _ := runtime.Caller(0)
	return runtime.FuncForPC(pc).Name()
}
