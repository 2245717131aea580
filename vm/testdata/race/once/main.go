// A value initialized in once.Do is read after Do returns: no race.
package main

import "sync"

var (
	once sync.Once
	cfg  map[string]int
)

func get() int {
	once.Do(func() { cfg = map[string]int{"a": 1} })
	return cfg["a"]
}

func main() {
	var wg sync.WaitGroup
	for i := 0; i < 2; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_ = get()
		}()
	}
	wg.Wait()
	println(get())
}
