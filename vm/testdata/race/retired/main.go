// Workers that each write their own result and end, each ordered before
// main by a handoff: once main has received from a worker, every live
// clock covers its write, the worker is retired (its entries leave the
// clocks) and main's reads of the results at the end, long after, must
// not be reported as races (access.unordered with retired writers).
package main

func main() {
	var results [6]int
	for i := 0; i < 6; i++ {
		done := make(chan bool)
		go func() {
			results[i] = i + 1
			done <- true
		}()
		<-done
		ch := make(chan int, 1)
		ch <- i // a release: main's clock ticks (and is rebuilt)
		<-ch
	}
	sum := 0
	for _, r := range results {
		sum += r
	}
	if sum != 21 {
		panic("lost update")
	}
}
