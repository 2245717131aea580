// A worker's write is ordered before main (which receives from it) but
// not before the function of a timer main set earlier: the worker has
// ended and main's clock covers its write, yet the write must stay
// remembered as racing with the timer's read (the pending timer's clock
// is among those that must cover it before the worker retires).
package main

import "time"

func main() {
	x := 0
	done, fired := make(chan bool), make(chan bool)
	go func() {
		x = 1
		done <- true
	}()
	time.AfterFunc(time.Millisecond, func() {
		_ = x
		fired <- true
	})
	<-done
	ch := make(chan int, 1)
	ch <- 1 // main's clock ticks and is rebuilt
	<-ch
	<-fired
}
