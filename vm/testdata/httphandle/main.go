// Command httphandle imports expvar and net/http/pprof, whose package
// initializers register handlers on http.DefaultServeMux, and registers
// one of its own; a bad registration panics as in Go.
package main

import (
	"expvar"
	"fmt"
	"net/http"
	_ "net/http/pprof"
)

func main() {
	expvar.NewInt("hits").Add(2)
	http.HandleFunc("/hello", func(w http.ResponseWriter, r *http.Request) {})
	fmt.Println(expvar.Get("hits"))
	defer func() { fmt.Println(recover()) }()
	http.Handle("/nil", nil)
}
