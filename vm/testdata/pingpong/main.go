// Two goroutines pass a counter back and forth over unbuffered channels.
package main

import "os"

func main() {
	n := 1000
	if len(os.Args) > 1 {
		n = 0
		for _, c := range os.Args[1] {
			n = n*10 + int(c-'0')
		}
	}
	ping, pong := make(chan int), make(chan int)
	go func() {
		for v := range ping {
			pong <- v + 1
		}
		close(pong)
	}()
	v := 0
	for i := 0; i < n; i++ {
		ping <- v
		v = <-pong
	}
	close(ping)
	println(v)
}
