// Program chans exercises the pairing of sends and receives that the
// timeline draws: a buffered channel whose sender parks when the buffer is
// full, and a select over two channels.
package main

// Buffered: three values through a buffer of one; the third send parks
// until a receive makes room, and its value then enters the buffer.
func Buffered() {
	ch := make(chan int, 1)
	done := make(chan bool)
	go func() {
		ch <- 1
		ch <- 2
		ch <- 3
		done <- true
	}()
	<-ch
	<-ch
	<-ch
	<-done
}

// Select takes one value from each of two senders in a select.
func Select() {
	a, b := make(chan int), make(chan int)
	go func() { a <- 1 }()
	go func() { b <- 2 }()
	for i := 0; i < 2; i++ {
		select {
		case <-a:
		case <-b:
		}
	}
}

func main() {
	Buffered()
	Select()
}
