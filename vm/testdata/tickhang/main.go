// Hangs (vm/hang.go), selected by os.Args[1]: "idle": main blocks forever
// while a ticker nobody reads keeps firing; "worker": main blocks forever
// while a background poller sleeps and wakes; "count" and "sleep" make
// progress (a goroutine counts five ticks then releases main; main sleeps
// 20 ms while the poller runs; a poller stops once the clock passes a
// deadline, its states alike until then): no hang.
package main

import (
	"os"
	"time"
)

func main() {
	tk := time.NewTicker(time.Millisecond)
	defer tk.Stop()
	switch os.Args[1] {
	case "idle":
		<-make(chan int)
	case "worker":
		go poll()
		<-make(chan int)
	case "count":
		done := make(chan bool)
		go func() {
			for i := 0; i < 5; i++ {
				<-tk.C
			}
			done <- true
		}()
		<-done
	case "sleep":
		go poll()
		time.Sleep(20 * time.Millisecond)
	case "deadline": // a poller that ends when the clock passes a deadline
		deadline := time.Now().Add(5 * time.Millisecond)
		done := make(chan bool)
		go func() {
			for {
				time.Sleep(time.Millisecond)
				if expired(deadline) {
					close(done)
					return
				}
			}
		}()
		<-done
	}
}

func expired(d time.Time) bool { return time.Now().After(d) }

func poll() {
	for {
		time.Sleep(time.Millisecond)
	}
}
