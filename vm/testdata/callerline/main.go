// Command callerline prints the lines runtime.Caller(0) and
// runtime.Caller(1) report, as rs/zerolog's TestCallerMarshalFunc
// compares them with the line of the logging call.
package main

import (
	"fmt"
	"runtime"
)

func where() int {
	_, _, line, _ := runtime.Caller(1)
	return line
}

func main() {
	var a int
	var b string
	fmt.Println(a, b)
	_, _, line, _ := runtime.Caller(0)
	fmt.Println(line, where())
}
