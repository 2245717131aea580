// Data handed over a channel: the send happens before the receive.
package main

type box struct{ v int }

func main() {
	ch := make(chan *box)
	go func() {
		b := &box{}
		b.v = 42
		ch <- b
	}()
	b := <-ch
	b.v++
	println(b.v)
}
