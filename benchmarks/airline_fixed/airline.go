// Command airline_fixed is the repaired twin of the airline benchmark: sold
// and stopSales are guarded by one mutex and a seller only sells while a
// seat is left (otherwise it sets stopSales), so sold never exceeds
// capacity and main no longer has to take a sale back.
//
// Usage:
//
//	airline_fixed [tickets [cushion]]
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
	mu        sync.Mutex // guards sold and stopSales
	sold      int
	stopSales bool
)

func sell() {
	mu.Lock()
	defer mu.Unlock()
	if sold < capacity {
		sold++
	} else {
		stopSales = true
	}
}

func main() {
	tickets, cushion := arg(1, 20), arg(2, 1)
	capacity = tickets - cushion
	var wg sync.WaitGroup
	for range tickets {
		mu.Lock()
		stop := stopSales
		mu.Unlock()
		if stop {
			break
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			sell()
		}()
	}
	mu.Lock()
	if sold > capacity {
		panic(fmt.Sprintf("airline: bug found: %d seats sold, capacity %d", sold, capacity))
	}
	mu.Unlock()
	wg.Wait()
}

// arg returns os.Args[i] as an integer, or def when there is no such argument.
func arg(i, def int) int {
	if i >= len(os.Args) {
		return def
	}
	n, err := strconv.Atoi(os.Args[i])
	if err != nil {
		fmt.Fprintln(os.Stderr, "usage: airline_fixed [tickets [cushion]]")
		os.Exit(2)
	}
	return n
}
