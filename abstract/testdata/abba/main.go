// AB-BA: two goroutines take two locks in opposite orders; the targets are
// the two inner acquisitions, to be reached by distinct goroutines at once.
package main

import "sync"

var a, b sync.Mutex

func one(done chan bool) {
	a.Lock()
	b.Lock() //gmc:target
	b.Unlock()
	a.Unlock()
	done <- true
}

func two(done chan bool) {
	b.Lock()
	//gmc:target
	a.Lock()
	a.Unlock()
	b.Unlock()
	done <- true
}

func main() {
	done := make(chan bool)
	go one(done)
	go two(done)
	<-done
	<-done
}
