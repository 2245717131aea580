// Command callerpc prints where runtime.Callers says its callers are, by
// the pkg/errors idiom: the frame's PC minus one, decoded by
// runtime.FuncForPC and (*Func).FileLine. PC-1 lies inside the call
// instruction, so it names the call's own line, not the line of the
// instruction before it (another initializer in a package's init, the
// closure a multi-line call builds).
package main

import (
	"fmt"
	"path/filepath"
	"runtime"
	"strings"
)

var first = strings.Repeat("a", 2)

var initAt = where(1, true)

// where returns the function (when named is set) and the file:line of the
// frame skip levels up, as pkg/errors' Frame formats it.
//
//go:noinline
func where(skip int, named bool) string {
	var pcs [1]uintptr
	if runtime.Callers(skip+1, pcs[:]) == 0 {
		return "no frame"
	}
	pc := pcs[0] - 1
	f := runtime.FuncForPC(pc)
	if f == nil {
		return "unknown"
	}
	file, line := f.FileLine(pc)
	s := fmt.Sprintf("%s:%d", filepath.Base(file), line)
	if named {
		s = f.Name() + " " + s
	}
	return s
}

func main() {
	fmt.Println(first, initAt)
	fmt.Println(where(1, true))
	fmt.Println(func() string {
		return where(2, false)
	}())
	s := strings.ToUpper(
		func() string {
			return func() string {
				return where(3, false)
			}()
		}(),
	)
	fmt.Println(s)
}
