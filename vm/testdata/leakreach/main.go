// Goroutine leaks by reachability (vm/leak.go): a goroutine blocked on a
// primitive that something live can still reach is not leaked. Each case
// is selected by os.Args[1]; vm/leak_test.go checks the leaked goroutines.
package main

import (
	"os"
	"runtime"
	"sync"
)

var global = make(chan int)

var globalMu sync.Mutex

func main() {
	switch os.Args[1] {
	case "global": // blocked on a global channel: no leak
		go func() { <-global }()
	case "local": // blocked on a channel only it references: leaked
		ch := make(chan int)
		go func() { ch <- 1 }()
	case "chain": // g2 waits on a local channel that g1, blocked on a global one, holds: no leak
		ch := make(chan int)
		go func() {
			<-global
			ch <- 1
		}()
		go func() { <-ch }()
	case "mutex": // blocked on a global mutex: no leak; on a local one: leaked
		globalMu.Lock()
		go func() { globalMu.Lock() }()
		var mu sync.Mutex
		mu.Lock()
		go func() { mu.Lock() }()
	case "closer": // the channel is reachable from a goroutine about to close it: no leak
		ch := make(chan int)
		go func() { <-ch }()
		go close(ch)
		return
	case "wggo": // the WaitGroup is reachable from the goroutine wg.Go started: no leak
		var wg sync.WaitGroup
		wg.Go(func() { runtime.Gosched() })
		go func() { wg.Wait() }()
		return
	case "nil": // a nil channel is never reachable
		go func() {
			var c chan int
			<-c
		}()
	}
	for i := 0; i < 10; i++ {
		runtime.Gosched()
	}
}
