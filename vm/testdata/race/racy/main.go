// Two goroutines increment a shared counter without synchronization.
package main

var counter int

func main() {
	done := make(chan bool)
	go func() {
		counter++ // racy write
		done <- true
	}()
	counter++ // racy write
	<-done
	println(counter)
}
