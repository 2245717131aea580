// Command mainexit starts a goroutine that panics and returns at once:
// the panic happens only when the goroutine runs before main returns, so a
// search that never runs it before main's end must not claim "no error".
package main

var x int

func main() {
	go func() {
		x = 1
		panic("the goroutine ran before main returned")
	}()
	x = 2
}
