package vm

// SetPackMin makes objects of packable types of at least n cells packed
// (packed.go) until restore is called: the tests run programs with every
// such object packed (n = 1) and with none (n huge).
func SetPackMin(n int) (restore func()) {
	old := packMin
	packMin = n
	return func() { packMin = old }
}
