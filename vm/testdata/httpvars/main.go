// Command httpvars prints what net/http's initializer set, and uses
// cookies: its code (lib) imports net/http, so net/http's pure parts and
// initializer are kept.
package main

import (
	"errors"
	"fmt"
	"net/http"

	"httpvars/lib"
)

func main() {
	fmt.Println(lib.Transport.MaxIdleConns, lib.Transport.ForceAttemptHTTP2, http.DefaultClient != nil)
	fmt.Println(errors.Is(http.ErrNoCookie, http.ErrNoCookie), http.ErrNoCookie)
	// cookies are pure Go too (cookie.go)
	c := &http.Cookie{Name: "session", Value: "abc", Path: "/", MaxAge: 60}
	r, _ := http.NewRequest("GET", "http://example.com/", nil)
	r.AddCookie(&http.Cookie{Name: "a", Value: "1"})
	got, err := r.Cookie("a")
	_, missing := r.Cookie("b")
	fmt.Println(c.String(), got.Value, err, missing == http.ErrNoCookie)
}
