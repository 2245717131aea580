// go statements whose function is a native model or a builtin (go
// wg.Done(), go close(ch), go mu.Unlock(), go fmt.Println(x)), and natives
// that return a value after running Go code (t.Run in main_test.go). Each
// case is selected by os.Args[1]; vm/gostmt_test.go checks the outcome.
package main

import (
	"fmt"
	"os"
	"sync"
	"time"
)

func main() {
	switch os.Args[1] {
	case "wg":
		var wg sync.WaitGroup
		wg.Add(2)
		go wg.Done()
		go wg.Done()
		wg.Wait()
		fmt.Println("wg ok")
	case "close":
		ch := make(chan int)
		go close(ch)
		_, ok := <-ch
		fmt.Println("close ok", ok)
	case "unlock":
		var mu sync.Mutex
		mu.Lock()
		go mu.Unlock()
		mu.Lock()
		fmt.Println("unlock ok")
	case "println":
		go fmt.Println("hello", 42)
		time.Sleep(time.Second)
	case "lock":
		// the second Lock blocks forever: a leak of the wrapper goroutine
		var mu sync.Mutex
		mu.Lock()
		go mu.Lock()
		time.Sleep(time.Second)
	case "send":
		ch := make(chan int)
		go func(x int) { ch <- x }(7)
		fmt.Println(<-ch)
	}
}
