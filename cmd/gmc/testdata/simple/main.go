// A program with an order violation: the worker may read the config
// before main sets it.
package main

import "sync"

type config struct{ ready bool }

var cfg *config

func main() {
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		if cfg == nil {
			panic("config not ready")
		}
	}()
	cfg = &config{ready: true}
	wg.Wait()
	println("ok")
}
