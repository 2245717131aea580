// A reader and a writer of a slice element, ordered only by a sleep.
package main

import "time"

func main() {
	s := []int{0}
	go func() {
		s[0] = 1 // racy write
	}()
	time.Sleep(time.Millisecond)
	println(s[0]) // racy read
}
