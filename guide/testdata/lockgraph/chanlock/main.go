// Two capacity-1 channels used as locks (a send acquires, a receive by
// the same goroutine releases), taken in opposite orders: a deadlock the
// monitor predicts from runs that do not deadlock.
package main

import "sync"

var (
	a  = make(chan struct{}, 1)
	b  = make(chan struct{}, 1)
	wg sync.WaitGroup
	n  int
)

func ab() {
	defer wg.Done()
	a <- struct{}{}
	b <- struct{}{} // want "acquire"
	n++
	<-b
	<-a
}

func ba() {
	defer wg.Done()
	b <- struct{}{}
	a <- struct{}{} // want "acquire"
	n++
	<-a
	<-b
}

func main() {
	wg.Add(2)
	go ab()
	go ba()
	wg.Wait()
}
