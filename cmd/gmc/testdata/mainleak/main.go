// Command mainleak: with argument "leak", main returns while a goroutine
// is blocked on a channel only its own stack refers to (a leak by Go
// 1.26's rule); with "global", the goroutine is blocked on a channel a
// global still refers to (not a leak: the runtime's leak profile does not
// list it); with "server", a goroutine serves requests from a global
// channel forever.
package main

import (
	"os"
	"runtime"
)

var requests = make(chan int)

func main() {
	switch os.Args[1] {
	case "leak":
		ch := make(chan int)
		go func() { ch <- 1 }()
		runtime.Gosched() // a scheduling point: it may block before main returns
	case "global":
		go func() { <-requests }()
	case "server":
		done := make(chan bool)
		go func() {
			done <- true
			for r := range requests {
				_ = r
			}
		}()
		<-done
	}
}
