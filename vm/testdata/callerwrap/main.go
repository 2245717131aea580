// Command callerwrap prints what runtime.Caller and runtime.Callers
// report through the functions gc generates and hides (a pointer
// receiver's wrapper of a value method called through an interface, a
// method value, a method expression, an embedded field's promoted
// method through an interface), as go-logr/logr's funcr counts frames
// to name its caller, and through the frames it does not hide (a
// generic function's instance, a range-over-func loop body).
package main

import (
	"fmt"
	"iter"
	"path/filepath"
	"runtime"
	"strings"
)

type sink interface{ Info() string }

type logger struct{ depth int }

// Info reports the line of its caller's caller, as funcr's Formatter
// does with runtime.Caller(depth + 2).
func (l logger) Info() string { return where(l.depth + 2) }

func where(skip int) string {
	_, file, line, ok := runtime.Caller(skip)
	if !ok {
		return "?"
	}
	return fmt.Sprintf("%s:%d", filepath.Base(file), line)
}

type outer struct{ logger }

// names lists the functions runtime.Callers reports above main.main.
func names() string {
	pcs := make([]uintptr, 32)
	n := runtime.Callers(2, pcs)
	frames := runtime.CallersFrames(pcs[:n])
	var out []string
	for {
		f, more := frames.Next()
		if f.Function == "main.main" {
			break
		}
		out = append(out, f.Function)
		if !more {
			break
		}
	}
	return strings.Join(out, " ")
}

type lister struct{}

func (lister) List() string { return names() }

type listerI interface{ List() string }

func generic[T any](v T) string { return where(1) }

func seq() iter.Seq[int] {
	return func(yield func(int) bool) { yield(1) }
}

func main() {
	var s sink = &logger{}
	fmt.Println("interface via pointer:", s.Info())
	s = outer{}
	fmt.Println("promoted via interface:", s.Info())
	f := logger{}.Info
	fmt.Println("method value:", f())
	g := (*logger).Info
	fmt.Println("method expression:", g(&logger{}))
	fmt.Println("generic:", generic(1))
	for range seq() {
		fmt.Println("range func:", where(1))
	}
	var l listerI = &lister{}
	fmt.Println("callers:", l.List())
	h := lister{}.List
	fmt.Println("callers of a method value:", h())
}
