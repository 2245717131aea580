// main fills two capacity-1 channels, a then b, and never empties them:
// its sends hand the tokens to worker, which takes b then a and puts them
// back. Counting main's sends as lock holds would give the cycle a→b
// (main) and b→a (worker), but main never releases a channel itself, so
// its holds are hand-offs: no deadlock is possible and the monitor
// predicts none.
package main

var (
	a    = make(chan struct{}, 1)
	b    = make(chan struct{}, 1)
	done = make(chan struct{})
)

func worker() {
	<-b
	<-a
	a <- struct{}{}
	b <- struct{}{}
	close(done)
}

func main() {
	go worker()
	a <- struct{}{}
	b <- struct{}{}
	<-done
}
