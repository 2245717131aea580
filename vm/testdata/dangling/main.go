// Program dangling holds a pointer in a global and leaks a goroutine; the
// VM's TestDanglingReference replaces the pointer by one to an object
// the heap no longer has.
package main

var p *[4]int

func main() {
	p = new([4]int)
	ch := make(chan int)
	go func() { ch <- 1 }()
	println(p[0])
}
