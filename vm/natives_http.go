package vm

// Natives of net/http's default mux registrations. net/http is stripped
// to its pure parts (vm/load's partkeep_http.go): its ServeMux, servers
// and clients are the OS boundary. Yet importing expvar or
// net/http/pprof registers their handlers on http.DefaultServeMux in the
// package initializer, so every test of a package that imports them
// (prometheus/client_golang's prometheus: 56 of its tests) stopped at the
// boundary before it began. http.Handle and http.HandleFunc register
// nothing here: the mux they would fill is read only by serving, or by
// DefaultServeMux's methods, which stay at the boundary, so no run can
// see the registration. Their panics on bad arguments are Go's (an empty
// pattern, a nil handler); a second registration of one pattern, which
// panics in Go, is not caught.

func init() {
	def("net/http.Handle", nativeHTTPHandle)
	def("net/http.HandleFunc", nativeHTTPHandle)
}

// nativeHTTPHandle is http.Handle(pattern, handler) and
// http.HandleFunc(pattern, handler): Go's checks of the arguments, no
// registration (see above).
func nativeHTTPHandle(t *thread, args []Value) (Value, ctl) {
	if args[0].(string) == "" {
		return nil, t.stringPanic("http: invalid pattern")
	}
	if isNilValue(args[1]) {
		return nil, t.stringPanic("http: nil handler")
	}
	return nil, ctlNext
}
