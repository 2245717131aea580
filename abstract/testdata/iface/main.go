// A target reached through a closure started as a goroutine and an interface
// method call; the branch reads a global set before the goroutine starts.
package main

type Checker interface {
	Check(v int)
}

type strict struct{ max int }

func (s strict) Check(v int) {
	if v > s.max {
		panic("too big") // the target
	}
}

type lax struct{}

func (lax) Check(v int) {}

var level int

func main() {
	level = 7
	var c Checker = strict{max: 5}
	run := func(v int) {
		c.Check(v)
	}
	done := make(chan struct{})
	go func() {
		run(level)
		close(done)
	}()
	<-done
	var l Checker = lax{}
	l.Check(1)
}
