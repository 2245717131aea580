// Program senders: workers started in a loop each send on channels their
// closure captured, which nothing closes, as a test's workers often do.
// Race-free. The race detector keeps no memory of those sends
// (vm/byvalue.go): which worker sent first is not part of the state.
package main

func main() {
	const n = 3
	sem := make(chan struct{}, n)
	ch := make(chan int)
	done := make(chan bool, n)
	for i := 0; i < n; i++ {
		sem <- struct{}{}
		go func() {
			ch <- i
			<-sem
			done <- true
		}()
	}
	go func() {
		for i := 0; i < n; i++ {
			<-ch
		}
	}()
	for i := 0; i < n; i++ {
		<-done
	}
}
