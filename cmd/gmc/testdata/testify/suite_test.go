package testifycase

import (
	"sync"
	"testing"

	"github.com/stretchr/testify/suite"
)

// counterSuite runs as testify suites do: suite.Run finds its Test
// methods with reflect's Type.Method and calls each through Method.Func.
type counterSuite struct {
	suite.Suite
	mu sync.Mutex
	n  int
}

func (s *counterSuite) SetupTest() { s.n = 0 }

// TestLocked passes in every interleaving.
func (s *counterSuite) TestLocked() {
	var wg sync.WaitGroup
	for i := 0; i < 2; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s.mu.Lock()
			s.n++
			s.mu.Unlock()
		}()
	}
	wg.Wait()
	s.Equal(2, s.n)
}

// TestUnlocked races on the counter (go test -race reports it).
func (s *counterSuite) TestUnlocked() {
	done := make(chan bool)
	go func() {
		s.n++
		done <- true
	}()
	s.n++
	<-done
}

func TestCounterSuite(t *testing.T) { suite.Run(t, new(counterSuite)) }
