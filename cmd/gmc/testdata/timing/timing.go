// Package timing holds tests whose outcome depends on gmc's time model
// (cmd/gmc's TestTimingModel runs them): each test's comment says what
// `gmc check` must report by default, as `go test -race` runs it.
package timing
