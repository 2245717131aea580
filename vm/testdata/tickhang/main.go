// main blocks forever while a ticker keeps firing: Go reports no deadlock
// (a timer is pending) and the program hangs.
package main

import "time"

func main() {
	tk := time.NewTicker(time.Millisecond)
	defer tk.Stop()
	<-make(chan int)
}
