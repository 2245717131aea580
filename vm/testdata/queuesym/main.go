// Command queuesym starts three senders on one unbuffered channel and,
// once a gate opens, receives from them in the order they queued (vm's TestHashQueueSymmetry).
// With the argument "same" the senders are identical (each sends 7): the
// order in which they queued cannot matter, and states that differ only by
// it hash equally. Otherwise sender i sends i — alike in code, not in what
// they send — and main panics when it receives 2, 1, 0: the orders must
// stay apart for a search with a visited set to find that.
package main

import "os"

func main() {
	same := len(os.Args) > 1 && os.Args[1] == "same"
	ch := make(chan int)
	for i := 0; i < 3; i++ {
		v := i
		if same {
			v = 7
		}
		go func() { ch <- v }()
	}
	gate := make(chan struct{})
	go func() { close(gate) }()
	<-gate // (the senders may queue meanwhile)
	a, b, c := <-ch, <-ch, <-ch
	if a == 2 && b == 1 && c == 0 {
		panic("received in reverse order")
	}
}
