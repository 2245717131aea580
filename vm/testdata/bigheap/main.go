// A heap of 10,000 objects (a linked list) and a few goroutines that touch
// a small part of it: the cost of a step must not grow with the heap.
package main

import "sync"

type node struct {
	val  int
	next *node
}

var head *node

func main() {
	for i := 0; i < 10000; i++ {
		head = &node{val: i, next: head}
	}
	var mu sync.Mutex
	var wg sync.WaitGroup
	for g := 0; g < 2; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 1000; i++ {
				mu.Lock()
				head.val++
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	println(head.val)
}
