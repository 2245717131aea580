// Package hang holds tests that go test would end with "test timed out"
// (cmd/gmc's TestTestHang runs them): neither a deadlock (a ticker's
// goroutine keeps running) nor a leak (it keeps the test's wait
// reachable).
package hang
