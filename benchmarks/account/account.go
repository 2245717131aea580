// Command account is the account benchmark of the main seed (Table B.1:
// Account-NoDeadlkCk and Account-NoExcepCk). Accounts A, B, C, ... each have
// a mutex and a balance of 100, and one manager goroutine per account
// deposits 300, transfers 10 to account i+1, deposits 10, transfers 10 to
// account i+2, withdraws 20, deposits 10, transfers 10 to account i+1 and
// withdraws 100 (indices mod N). A transfer locks the source, debits it and,
// still holding the source, deposits into the destination, which locks the
// destination — except for account D, which adds to the destination's
// balance without locking it. Main joins the managers and panics if any
// balance is not 300.
//
// Two bugs: D's unlocked credit can be lost (the panic), and the nested
// locking of the other transfers can close a cycle and deadlock (with 5
// accounts, for example, A→C, C→E and E→A).
//
// Usage:
//
//	account [accounts [check]]
//
// The defaults are 5 accounts and check 1. With check 0 main skips the
// balance check, so the deadlock is the only error left (the seed's
// Account-NoExcepCk configuration; check 1 is Account-NoDeadlkCk).
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
	if a.name == "D" {
		to.balance += n // without the destination's lock
	} else {
		to.Deposit(n) // BUG: deadlock: locks the destination while holding the source
	}
	a.mu.Unlock()
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
			panic(fmt.Sprintf("account: bug found: account %s has balance %d, want 300", a.name, a.balance)) // BUG: D's unlocked credit was lost
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
		fmt.Fprintln(os.Stderr, "usage: account [accounts [check]]")
		os.Exit(2)
	}
	return n
}
