package vm

// SetPackMin makes objects of packable types of at least n cells packed
// (packed.go) until restore is called: the tests run programs with every
// such object packed (n = 1) and with none (n huge).
func SetPackMin(n int) (restore func()) {
	old := packMin
	packMin = n
	return func() { packMin = old }
}

// SetCellPageMin makes plain objects of at least n cells paged
// (cellpages.go) until restore is called: the tests run programs with
// every object paged (n = 1).
func SetCellPageMin(n int) (restore func()) {
	old := cellPageMin
	cellPageMin = n
	return func() { cellPageMin = old }
}
