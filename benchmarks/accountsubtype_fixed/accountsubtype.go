// Command accountsubtype_fixed is the repaired twin of the accountsubtype
// benchmark: a personal transfer debits itself under its own lock, releases
// it, and then deposits into the destination through Deposit, which takes
// the destination's lock. No update is lost and, because personal accounts
// never hold their own lock while waiting for another, the business
// transfers cannot close a lock cycle around the ring.
//
// Usage:
//
//	accountsubtype_fixed [business [personal]]
//
// The defaults are 8 business accounts and 1 personal account (at least one
// personal account is needed to rule out the lock cycle).
package main

import (
	"fmt"
	"os"
	"strconv"
	"sync"
)

// Account is a bank account that can be shared by goroutines.
type Account interface {
	Deposit(n int)
	Withdraw(n int)
	Transfer(to Account, n int)
	Balance() int
	base() *account
}

// account is the part common to both kinds of accounts.
type account struct {
	mu      sync.Mutex
	balance int
}

func (a *account) Deposit(n int) {
	a.mu.Lock()
	a.balance += n
	a.mu.Unlock()
}

func (a *account) Withdraw(n int) {
	a.mu.Lock()
	a.balance -= n
	a.mu.Unlock()
}

func (a *account) Balance() int {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.balance
}

func (a *account) base() *account { return a }

// BusinessAccount transfers by depositing into the destination while it
// holds its own lock.
type BusinessAccount struct{ account }

func (b *BusinessAccount) Transfer(to Account, n int) {
	b.mu.Lock()
	b.balance -= n
	to.Deposit(n)
	b.mu.Unlock()
}

// PersonalAccount debits itself, then deposits into the destination.
type PersonalAccount struct{ account }

func (p *PersonalAccount) Transfer(to Account, n int) {
	p.mu.Lock()
	p.balance -= n
	p.mu.Unlock()
	to.Deposit(n)
}

func manage(a, next Account) {
	a.Deposit(300)
	a.Transfer(next, 10)
	a.Deposit(10)
	a.Withdraw(20)
	a.Deposit(10)
	a.Transfer(next, 10)
	a.Withdraw(100)
}

func main() {
	business, personal := arg(1, 8), arg(2, 1)
	var accounts []Account
	for range business {
		accounts = append(accounts, &BusinessAccount{account{balance: 100}})
	}
	for range personal {
		accounts = append(accounts, &PersonalAccount{account{balance: 100}})
	}
	var wg sync.WaitGroup
	for i, a := range accounts {
		next := accounts[(i+1)%len(accounts)]
		wg.Add(1)
		go func() {
			defer wg.Done()
			manage(a, next)
		}()
	}
	wg.Wait()
	for i, a := range accounts {
		if b := a.Balance(); b != 300 {
			panic(fmt.Sprintf("accountsubtype: bug found: account %d has balance %d, want 300", i, b))
		}
	}
}

// arg returns os.Args[i] as an integer, or def when there is no such argument.
func arg(i, def int) int {
	if i >= len(os.Args) {
		return def
	}
	n, err := strconv.Atoi(os.Args[i])
	if err != nil {
		fmt.Fprintln(os.Stderr, "usage: accountsubtype_fixed [business [personal]]")
		os.Exit(2)
	}
	return n
}
