// Package goid is the shape of github.com/petermattis/goid that gmc models:
// Get reads the goroutine's id through getg, written in assembly there (the
// .s file is not needed to load the package into gmc).
package goid

import (
	"bytes"
	"runtime"
	"strconv"
)

type g struct {
	stack [2]uintptr
	goid  int64
}

func getg() *g

// Get returns the calling goroutine's id.
func Get() int64 {
	return getg().goid
}

// Slow parses the id from runtime.Stack, as goid does where it has no assembly.
func Slow() int64 {
	var buf [64]byte
	s := buf[:runtime.Stack(buf[:], false)]
	s = s[len("goroutine "):]
	s = s[:bytes.IndexByte(s, ' ')]
	id, _ := strconv.ParseInt(string(s), 10, 64)
	return id
}
