// Two capacity-1 channels used as locks the other way round: each holds
// a token, a receive takes the lock and the send that puts the token
// back releases it. Taken in opposite orders: a deadlock the monitor
// predicts from runs that do not deadlock.
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
	<-a
	<-b // want "acquire"
	n++
	b <- struct{}{}
	a <- struct{}{}
}

func ba() {
	defer wg.Done()
	<-b
	<-a // want "acquire"
	n++
	a <- struct{}{}
	b <- struct{}{}
}

func main() {
	a <- struct{}{}
	b <- struct{}{}
	wg.Add(2)
	go ab()
	go ba()
	wg.Wait()
}
