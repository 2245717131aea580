// Three hundred readers in turn, each ordered after the one before by a
// handoff, read a word the first goroutine wrote. A read ordered after
// the ones before it supersedes them (vm supersedes), so the word's
// shadow remembers the readers that may still race with a write, not all
// three hundred.
package main

var word int

func main() {
	done := make(chan bool)
	go func() {
		word = 1
		done <- true
	}()
	<-done
	sum := 0
	for range 300 {
		go func() {
			sum += word
			done <- true
		}()
		<-done
	}
	if sum != 300 {
		panic("lost read")
	}
}
