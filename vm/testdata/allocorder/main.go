// Two goroutines allocate and publish an object each; the final states of
// the two orders differ only in allocation order.
package main

import "sync"

var a, b *int

func main() {
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		x := new(int)
		*x = 1
		a = x
		wg.Done()
	}()
	go func() {
		y := new(int)
		*y = 2
		b = y
		wg.Done()
	}()
	wg.Wait()
	println(*a + *b)
}
