// Command cmd checks goid.Get against the id runtime.Stack prints, in the
// main goroutine and in another one.
package main

import (
	"fmt"

	"github.com/petermattis/goid"
)

func main() {
	done := make(chan [2]int64)
	go func() { done <- [2]int64{goid.Get(), goid.Slow()} }()
	o := <-done
	fmt.Println(goid.Get() == goid.Slow(), o[0] == o[1], o[0] != goid.Get())
}
