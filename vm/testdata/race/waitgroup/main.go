// Results written by workers are read after Wait: no race.
package main

import "sync"

func main() {
	res := make([]int, 2)
	var wg sync.WaitGroup
	for i := range res {
		wg.Add(1)
		go func() {
			defer wg.Done()
			res[i] = i * i
		}()
	}
	wg.Wait()
	sum := 0
	for _, v := range res {
		sum += v
	}
	println(sum)
}
