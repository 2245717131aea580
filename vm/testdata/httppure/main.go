// net/http's pure parts (vm/load/partkeep_http.go): a handler called
// directly with an httptest.ResponseRecorder and a Request built by hand,
// as rs/zerolog's hlog tests and testify's HTTP assertions do. With the
// argument "get" it calls http.Get, which stops at the OS boundary.
// vm/httppure_test.go compares the output with want.txt (go run's).
package main

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"strings"
)

type key struct{}

func main() {
	if len(os.Args) > 1 && os.Args[1] == "get" {
		resp, err := http.Get("http://127.0.0.1:1/")
		fmt.Println(resp, err)
		return
	}
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Println(r.Method, r.URL.Path, r.URL.Query().Get("q"), r.UserAgent(), r.Referer())
		fmt.Println(r.Context().Value(key{}), r.Header.Get("x-request-id"))
		w.Header().Set("x-answer", "42")
		if r.URL.Path == "/missing" {
			http.Error(w, "no such page", http.StatusNotFound)
			return
		}
		io.WriteString(w, "<html><body>hello</body></html>")
	})
	u, err := url.Parse("http://example.com/page?q=go&x=1")
	if err != nil {
		panic(err)
	}
	r := &http.Request{Method: "GET", URL: u, Header: http.Header{}}
	r.Header.Set("User-Agent", "gmc")
	r.Header.Add("Referer", "http://example.com/")
	r.Header["X-Request-Id"] = []string{"abc"}
	r = r.WithContext(context.WithValue(context.Background(), key{}, "ctx"))
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, r)
	fmt.Println(rec.Code, rec.Header().Get("Content-Type"), rec.Header().Get("X-Answer"), rec.Body.String())
	res := rec.Result()
	fmt.Println(res.StatusCode, res.Status, res.Header.Get("x-answer"))

	r2 := &http.Request{Method: "POST", URL: &url.URL{Path: "/missing"}, Header: http.Header{}}
	rec2 := httptest.NewRecorder()
	h.ServeHTTP(rec2, r2)
	fmt.Printf("%d %q %q\n", rec2.Code, rec2.Header().Get("Content-Type"), rec2.Body.String())
	// httptest.NewRequest: http.ReadRequest of a request line, a body
	// (allegro/bigcache's server tests, go-chi's handler tests)
	r3 := httptest.NewRequest("PUT", "/api/v1/cache/k?ttl=5", strings.NewReader("value"))
	rec3 := httptest.NewRecorder()
	http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		fmt.Println(r.Method, r.Host, r.RemoteAddr, r.URL.Path, r.URL.Query().Get("ttl"), r.ContentLength, string(b), r.Proto, r.TLS == nil)
		w.WriteHeader(http.StatusCreated)
	}).ServeHTTP(rec3, r3)
	fmt.Println(rec3.Result().StatusCode, httptest.NewRequest("GET", "https://a.example/x", nil).TLS.ServerName)
	// a ServeMux with a method and a wildcard, a redirect, StripPrefix
	mux := http.NewServeMux()
	mux.HandleFunc("GET /items/{id}", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, "item %s", r.PathValue("id"))
	})
	mux.Handle("/old", http.RedirectHandler("/new", http.StatusMovedPermanently))
	mux.Handle("/static/", http.StripPrefix("/static", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, "file ", r.URL.Path)
	})))
	for _, req := range []struct{ method, target string }{{"GET", "/items/7"}, {"POST", "/items/7"}, {"GET", "/old"}, {"GET", "/static/a.css"}, {"GET", "/nope"}} {
		rec := httptest.NewRecorder()
		mux.ServeHTTP(rec, httptest.NewRequest(req.method, req.target, nil))
		fmt.Printf("%s %s: %d %q %q %q\n", req.method, req.target, rec.Code, rec.Header().Get("Location"), rec.Header().Get("Allow"), strings.TrimSpace(rec.Body.String()))
	}
	// basic authentication (client.go's basicAuth, kept: didip/tollbooth's tests)
	r4 := httptest.NewRequest("GET", "/", nil)
	r4.SetBasicAuth("user", "pass")
	user, pw, ok := r4.BasicAuth()
	fmt.Println(r4.Header.Get("Authorization"), user, pw, ok)
	fmt.Println(http.StatusText(http.StatusTeapot), http.CanonicalHeaderKey("content-length"), http.DetectContentType([]byte("\x89PNG\r\n\x1a\n")))
}
