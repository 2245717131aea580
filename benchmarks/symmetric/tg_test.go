package symmetric

import (
	"os"
	"strconv"
	"sync"
	"testing"
)

func TestSend(t *testing.T) {
	n, _ := strconv.Atoi(os.Getenv("N"))
	if n == 0 {
		n = 4
	}
	ch := make(chan struct{})
	var wg sync.WaitGroup
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ch <- struct{}{}
		}()
	}
	for i := 0; i < n; i++ {
		<-ch
	}
	wg.Wait()
}
