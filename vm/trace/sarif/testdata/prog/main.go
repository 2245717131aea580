// Program prog has one entry per error kind the SARIF test reports.
package main

// main deadlocks: each goroutine waits for the other.
func main() {
	a, b := make(chan int), make(chan int)
	go func() {
		<-a // want deadlock
		b <- 1
	}()
	<-b // want deadlock
}

// Panics indexes past the end of a slice.
func Panics() {
	s := []int{1, 2, 3}
	i := len(s)
	_ = s[i] // want panic
}

// Leaks returns while its goroutine waits to send forever.
func Leaks() {
	ch := make(chan int)
	go send(ch)
}

func send(ch chan int) {
	ch <- 1 // want leak
}
