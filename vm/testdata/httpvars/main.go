// Command httpvars prints what net/http's initializer set: its code (lib)
// imports net/http, so net/http's pure parts and initializer are kept.
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
}
