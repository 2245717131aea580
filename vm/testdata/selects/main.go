// Command selects has selects with several ready cases and a timer that
// may fire among them (the choices of vm's TestStepAmong).
package main

import "time"

func main() {
	a, b := make(chan int, 2), make(chan int, 2)
	done := make(chan bool)
	t := time.NewTimer(time.Millisecond)
	go func() { a <- 1; a <- 2 }()
	go func() { b <- 1; b <- 2 }()
	go func() {
		for i := 0; i < 4; i++ {
			select {
			case <-a:
			case <-b:
			case <-t.C:
			}
		}
		done <- true
	}()
	<-done
}
