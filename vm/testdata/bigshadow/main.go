// Program bigshadow writes a large buffer one byte at a time while another
// goroutine lives (so the race detector remembers the writes): the shadow
// of the buffer's cells must grow geometrically, not cell by cell.
package main

func main() {
	done := make(chan bool)
	go func() { <-done }()
	buf := make([]byte, 60000)
	for i := range buf {
		buf[i] = byte(i)
	}
	done <- buf[100] == 100
}
