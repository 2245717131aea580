// Command panicnil recovers from panic(nil) in a module whose go line is
// older than 1.21: GODEBUG panicnil=1 is then the default, and recover
// returns nil (testify 1.10's TestPanicsWithValue relies on it).
package main

import "fmt"

func recovered() (v any, panicked bool) {
	panicked = true
	defer func() { v = recover() }()
	panic(nil)
}

func main() {
	v, p := recovered()
	fmt.Println(v, p, v == nil)
}
