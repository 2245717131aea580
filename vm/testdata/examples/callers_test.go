package examples

import (
	"fmt"
	"path/filepath"
	"runtime"
	"strings"
)

// go test runs an example on its main goroutine, below testing's frames
// and the test main's (sourcegraph/conc's ExampleCatcher_callers prints
// them): the functions and files of the stack, from a recovered panic's
// deferred call.
func Example_callers() {
	func() {
		defer func() {
			recover()
			pcs := make([]uintptr, 32)
			frames := runtime.CallersFrames(pcs[:runtime.Callers(1, pcs)])
			for {
				f, more := frames.Next()
				fmt.Println(f.Function, filepath.Base(f.File))
				if !more {
					break
				}
			}
		}()
		panic("stop")
	}()
	buf := make([]byte, 4096)
	stack := string(buf[:runtime.Stack(buf, false)])
	fmt.Println(strings.Contains(stack, "\ntesting.runExample("), strings.Contains(stack, "\nmain.main()"))
	// Output:
	// examples.Example_callers.func1.1 callers_test.go
	// runtime.gopanic panic.go
	// examples.Example_callers.func1 callers_test.go
	// examples.Example_callers callers_test.go
	// testing.runExample run_example.go
	// testing.runExamples example.go
	// testing.(*M).Run testing.go
	// main.main _testmain.go
	// runtime.main proc.go
	// runtime.goexit asm_amd64.s
	// true true
}
