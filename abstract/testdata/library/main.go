// The standard library is opaque to the slice: fmt's printer on an error
// path, strconv's parser and the varargs stores after the target put no
// location of theirs (nor of the error path) into the abstract system, as
// in the airline benchmark (the target is the load of count on line 46).
package main

import (
	"fmt"
	"os"
	"strconv"
)

var (
	limit, count int
	stop         bool
)

func arg(i, def int) int {
	if i >= len(os.Args) {
		return def
	}
	n, err := strconv.Atoi(os.Args[i])
	if err != nil {
		fmt.Fprintln(os.Stderr, "usage: library [n]")
		os.Exit(2)
	}
	return n
}

func main() {
	n := arg(1, 3)
	limit = n - 1
	done := make(chan bool, n)
	for range n {
		if stop {
			count--
			break
		}
		go func() {
			count++
			stop = count > limit
			done <- true
		}()
	}
	if count > limit {
		panic(fmt.Sprintf("%d > %d", count, limit))
	}
}
