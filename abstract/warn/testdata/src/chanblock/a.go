package chanblock

func leak(cancel chan struct{}) int {
	ch := make(chan int)
	go func() {
		ch <- 1 // want `send may block forever: every receive on the channel made at a.go:4:12 may be skipped`
	}()
	select {
	case v := <-ch:
		return v
	case <-cancel:
		return 0
	}
}

func fine() int {
	ch := make(chan int)
	go func() { ch <- 1 }()
	return <-ch
}

func early(fail bool) int {
	ch := make(chan int)
	go func() {
		ch <- 2 // want `send may block forever`
	}()
	if fail {
		return 0
	}
	return <-ch
}

func noReceiver() {
	ch := make(chan int)
	go func() {
		ch <- 3 // want `send may block forever: no receive`
	}()
}

func buffered() {
	ch := make(chan int, 1)
	go func() { ch <- 4 }()
}

func neverClosed(n int) {
	ch := make(chan int)
	go func() {
		for v := range ch { // want `receive may block forever: the channel made at a.go:46:12 is never closed`
			_ = v
		}
	}()
	for i := 0; i < n; i++ {
		ch <- i
	}
}

func closed(n int) {
	ch := make(chan int)
	go func() {
		for v := range ch {
			_ = v
		}
	}()
	for i := 0; i < n; i++ {
		ch <- i
	}
	close(ch)
}
