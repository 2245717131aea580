package generic

import "testing"

func TestPool(t *testing.T) {
	done := make(chan bool)
	in := Pool(1, func(v int) { done <- v > 0 })
	in <- 1
	<-done
}
