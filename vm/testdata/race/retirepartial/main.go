// A worker's write is ordered before main (which receives from it) but
// not before a second goroutine still asleep: after the writer ends and
// main's clock is rebuilt, the write must stay remembered as racing with
// the sleeper's read (every live clock must cover it before the writer
// retires). Virtual time wakes the sleeper only once all else blocks.
package main

import "time"

func main() {
	x := 0
	done, end := make(chan bool), make(chan bool)
	go func() {
		time.Sleep(time.Second)
		_ = x
		end <- true
	}()
	go func() {
		x = 1
		done <- true
	}()
	<-done
	ch := make(chan int, 1)
	ch <- 1 // main's clock ticks and is rebuilt
	<-ch
	<-end
}
