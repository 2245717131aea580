// Package main is the program of vm TestShadowReadsInPlace: main starts
// six readers of flag, each of which then blocks for ever, and blocks.
package main

var flag int

// reset writes flag, so flag is not immutable (vm's immutable.go leaves a
// global no code writes after initialization out of the race detector).
// Nothing calls it.
func reset() { flag = 0 }

func reader(stop chan struct{}) {
	_ = flag
	<-stop
}

func main() {
	stop := make(chan struct{})
	for i := 0; i < 6; i++ {
		go reader(stop)
	}
	<-stop
}
