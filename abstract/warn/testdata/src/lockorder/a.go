package lockorder

import "sync"

var a, b sync.Mutex

func one() {
	a.Lock()
	b.Lock() // want `lock order cycle: global lockorder.b acquired here while holding global lockorder.a`
	b.Unlock()
	a.Unlock()
}

func two() {
	b.Lock()
	lockA()
	b.Unlock()
}

func lockA() {
	a.Lock()
	a.Unlock()
}

type Acct struct {
	mu  sync.Mutex
	bal int
}

type Bank struct {
	mu    sync.Mutex
	total int
}

// Consistent order everywhere: no cycle.
func deposit(bk *Bank, ac *Acct, n int) {
	bk.mu.Lock()
	ac.mu.Lock()
	ac.bal += n
	bk.total += n
	ac.mu.Unlock()
	bk.mu.Unlock()
}

func main() {
	go one()
	go two()
	go deposit(&Bank{}, &Acct{}, 1)
}
