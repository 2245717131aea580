// Command harmful has a race that matters: the writer sets the shared
// pointer to nil while the reader checks it and then dereferences it;
// the reader panics when the write falls between its check and its use.
package main

type config struct{ n int }

var cfg = &config{n: 1}

func main() {
	done := make(chan bool)
	go func() {
		cfg = nil // races with the reader's check
		done <- true
	}()
	if c := cfg; c != nil {
		println(cfg.n) // nil dereference when the write came after the check
	}
	<-done
}
