// Command counter increments a counter from two goroutines without a
// lock and then asserts the total: a lost update fails the assertion.
package main

var hits int

func main() {
	done := make(chan bool)
	go func() {
		hits++ // races with main's increment
		done <- true
	}()
	hits++
	<-done
	if hits != 2 {
		panic("lost update")
	}
}
