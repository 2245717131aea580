// Command airline is the airline benchmark of the main seed (Tables 2.1,
// 2.2, 5.3, B.1, B.3, B.5). The main goroutine sells tickets, starting one
// seller per ticket; capacity is tickets - cushion. A seller increments the
// shared counter sold and sets stopSales when sold exceeds capacity. Before
// starting each seller main checks stopSales (if it is set it takes one sale
// back and stops); after the loop it panics if sold > capacity. Nothing is
// locked: lost updates and the check-then-act between a seller's increment
// and its stopSales store let sold end above capacity. A larger cushion
// needs more sellers to run before main's checks and pushes the error
// deeper.
//
// Usage:
//
//	airline [tickets [cushion]]
//
// The defaults are 20 tickets and a cushion of 1.
package main

import (
	"fmt"
	"os"
	"strconv"
	"sync"
)

var (
	capacity  int
	sold      int  // seats sold, shared by main and every seller without a lock
	stopSales bool // set by the seller that oversold
)

func sell() {
	sold++
	if sold > capacity {
		stopSales = true
	}
}

func main() {
	tickets, cushion := arg(1, 20), arg(2, 1)
	capacity = tickets - cushion
	var wg sync.WaitGroup
	for range tickets {
		if stopSales {
			sold--
			break
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			sell()
		}()
	}
	if sold > capacity {
		panic(fmt.Sprintf("airline: bug found: %d seats sold, capacity %d", sold, capacity)) // BUG: sellers oversold before main saw stopSales
	}
	wg.Wait()
}

// arg returns os.Args[i] as an integer, or def when there is no such argument.
func arg(i, def int) int {
	if i >= len(os.Args) {
		return def
	}
	n, err := strconv.Atoi(os.Args[i])
	if err != nil {
		fmt.Fprintln(os.Stderr, "usage: airline [tickets [cushion]]")
		os.Exit(2)
	}
	return n
}
