// Command benign has a race that cannot break anything: both goroutines
// store the same value in a flag that only the end of main reads, after
// both are done.
package main

var ready bool

func main() {
	done := make(chan bool)
	go func() {
		ready = true // races with main's store of the same value
		done <- true
	}()
	ready = true
	<-done
	if !ready {
		panic("not ready")
	}
}
