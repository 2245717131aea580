// Command spawn starts two goroutines: worker writes x, idle does not
// (the estimate test ranks their first transitions before they run).
package main

var x int

func worker() { x = 1 }

func idle() {
	for i := 0; i < 3; i++ {
		_ = i
	}
}

func main() {
	go idle()
	go worker()
	x = 2
}
