package vm

// github.com/petermattis/goid (sasha-s/go-deadlock's goroutine ids).
//
// goid.Get reads the goroutine's id from the runtime's g, reached with
// getg in assembly; where goid has no assembly it parses the "goroutine N"
// line of runtime.Stack instead. The model is that number: the id the
// VM's runtime.Stack prints for the calling goroutine.

func init() {
	def("github.com/petermattis/goid.Get", nativeGoidGet)
}

// nativeGoidGet is github.com/petermattis/goid.Get.
func nativeGoidGet(t *thread, args []Value) (Value, ctl) {
	t.s.idsSeen = true // the program sees goroutine ids (hash.go)
	return int64(t.s.goID(t.g.id)), ctlNext
}
