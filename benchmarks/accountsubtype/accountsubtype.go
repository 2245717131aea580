// Command accountsubtype is the accountsubtype benchmark of the main seed
// (Tables B.1, B.3, B.5). There are business+personal accounts, business
// accounts first, each with its own mutex and a balance of 100, and one
// manager goroutine per account that deposits 300, transfers 10 to the next
// account (index+1 mod N), deposits 10, withdraws 20, deposits 10, transfers
// 10 to the next account and withdraws 100. Accounts are used through the
// Account interface, which has two implementations: a business transfer
// holds its own lock while it deposits into the destination (taking the
// destination's lock); a personal transfer holds only its own lock and adds
// to the destination's balance directly. Main joins the managers and panics
// if any balance is not 300. The personal accounts' unprotected update of a
// neighbour's balance can be lost.
//
// Usage:
//
//	accountsubtype [business [personal]]
//
// The defaults are 8 business accounts and 1 personal account. With no
// personal account at all, the business transfers around the ring can
// deadlock instead.
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

// PersonalAccount transfers by adding to the destination's balance itself.
type PersonalAccount struct{ account }

func (p *PersonalAccount) Transfer(to Account, n int) {
	p.mu.Lock()
	p.balance -= n
	to.base().balance += n // without the destination's lock
	p.mu.Unlock()
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
			panic(fmt.Sprintf("accountsubtype: bug found: account %d has balance %d, want 300", i, b)) // BUG: a personal account's update of its neighbour was lost
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
		fmt.Fprintln(os.Stderr, "usage: accountsubtype [business [personal]]")
		os.Exit(2)
	}
	return n
}
