// Command account_fixed is the repaired twin of the account benchmark: a
// transfer debits the source under the source's lock, releases it, and then
// deposits into the destination through Deposit — account D included. No
// credit is lost and no goroutine holds one account's lock while waiting
// for another's, so there is no deadlock either.
//
// Usage:
//
//	account_fixed [accounts [check]]
//
// The defaults are 5 accounts and check 1.
package main

import (
	"fmt"
	"os"
	"strconv"
	"sync"
)

// Account is a bank account with its own lock.
type Account struct {
	name    string
	mu      sync.Mutex
	balance int
}

func (a *Account) Deposit(n int) {
	a.mu.Lock()
	a.balance += n
	a.mu.Unlock()
}

func (a *Account) Withdraw(n int) {
	a.mu.Lock()
	a.balance -= n
	a.mu.Unlock()
}

func (a *Account) Transfer(to *Account, n int) {
	a.mu.Lock()
	a.balance -= n
	a.mu.Unlock()
	to.Deposit(n)
}

func manage(accounts []*Account, i int) {
	a := accounts[i]
	next := func(k int) *Account { return accounts[(i+k)%len(accounts)] }
	a.Deposit(300)
	a.Transfer(next(1), 10)
	a.Deposit(10)
	a.Transfer(next(2), 10)
	a.Withdraw(20)
	a.Deposit(10)
	a.Transfer(next(1), 10)
	a.Withdraw(100)
}

func main() {
	n, check := arg(1, 5), arg(2, 1)
	accounts := make([]*Account, n)
	for i := range accounts {
		accounts[i] = &Account{name: name(i), balance: 100}
	}
	var wg sync.WaitGroup
	for i := range accounts {
		wg.Add(1)
		go func() {
			defer wg.Done()
			manage(accounts, i)
		}()
	}
	wg.Wait()
	if check == 0 {
		return
	}
	for _, a := range accounts {
		if a.balance != 300 {
			panic(fmt.Sprintf("account: bug found: account %s has balance %d, want 300", a.name, a.balance))
		}
	}
}

// name returns "A", "B", ... for 0, 1, ...
func name(i int) string {
	if i < 26 {
		return string(rune('A' + i))
	}
	return "A" + strconv.Itoa(i)
}

// arg returns os.Args[i] as an integer, or def when there is no such argument.
func arg(i, def int) int {
	if i >= len(os.Args) {
		return def
	}
	n, err := strconv.Atoi(os.Args[i])
	if err != nil {
		fmt.Fprintln(os.Stderr, "usage: account_fixed [accounts [check]]")
		os.Exit(2)
	}
	return n
}
