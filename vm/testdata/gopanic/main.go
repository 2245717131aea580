// Command gopanic calls the builtin panic as a deferred call and as a
// goroutine of its own (go panic(v): singleflight's DoChan crashes so):
// the first is recovered, the second crashes the program (vm's
// TestBuiltinPanicCall; go run prints the same).
package main

import "fmt"

type E struct{ s string }

func (e *E) Error() string { return "E(" + e.s + ")" }

func f() (r any) {
	defer func() { r = recover() }()
	defer panic("deferred builtin panic")
	return nil
}

func main() {
	fmt.Println("recovered:", f())
	go panic(&E{"go builtin panic"})
	select {}
}
