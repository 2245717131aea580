// Package lib reads net/http's variables in its initializer, as
// k8s.io/apimachinery's util/net does: net/http's initializer must have
// run (TestHTTPVars).
package lib

import "net/http"

// Transport is http.DefaultTransport as the *http.Transport it is.
var Transport = http.DefaultTransport.(*http.Transport)
