// Program finalizer registers finalizers and cleanups and forces
// collections: what is unreachable is finalized, what is reachable, cleared
// or stopped is not; weak pointers to what is unreachable are cleared.
package main

import (
	"fmt"
	"runtime"
	"time"
	"weak"
)

type res struct {
	name string
	pad  [8]int
}

var kept *res

// wait reports whether ch is closed within a second, forcing collections.
func wait(ch chan struct{}) bool {
	for i := 0; i < 20; i++ {
		runtime.GC()
		select {
		case <-ch:
			return true
		case <-time.After(50 * time.Millisecond):
		}
	}
	return false
}

func main() {
	// unreachable once the function returns
	dropped := make(chan struct{})
	func() {
		r := &res{name: "dropped"}
		runtime.SetFinalizer(r, func(r *res) { fmt.Println("finalized", r.name); close(dropped) })
	}()
	fmt.Println("dropped:", wait(dropped))

	// a finalizer taking an interface; the variable no longer read
	viaAny := make(chan struct{})
	r := &res{name: "any"}
	runtime.SetFinalizer(r, func(x any) { fmt.Println("finalized", x.(*res).name); close(viaAny) })
	fmt.Println("any:", wait(viaAny))

	// reachable from a global: never finalized
	globalDone := make(chan struct{})
	kept = &res{name: "global"}
	runtime.SetFinalizer(kept, func(*res) { close(globalDone) })
	runtime.GC()
	select {
	case <-globalDone:
		fmt.Println("global: finalized")
	case <-time.After(200 * time.Millisecond):
		fmt.Println("global: kept")
	}

	// cleared before it became unreachable
	cleared := make(chan struct{})
	func() {
		c := &res{name: "cleared"}
		runtime.SetFinalizer(c, func(*res) { close(cleared) })
		runtime.SetFinalizer(c, nil)
	}()
	runtime.GC()
	select {
	case <-cleared:
		fmt.Println("cleared: finalized")
	case <-time.After(200 * time.Millisecond):
		fmt.Println("cleared: not run")
	}

	// cleanups: one runs, one stopped
	ran, stopped := make(chan struct{}), make(chan struct{})
	func() {
		a, b := &res{name: "a"}, &res{name: "b"}
		runtime.AddCleanup(a, func(name string) { fmt.Println("cleanup", name); close(ran) }, a.name)
		c := runtime.AddCleanup(b, func(string) { close(stopped) }, b.name)
		c.Stop()
	}()
	fmt.Println("cleanup:", wait(ran))
	select {
	case <-stopped:
		fmt.Println("stopped: ran")
	case <-time.After(200 * time.Millisecond):
		fmt.Println("stopped: not run")
	}

	// weak pointers: cleared once their target is unreachable, kept while
	// it is reachable; two made from one pointer are equal
	wk := weak.Make(kept)
	fmt.Println("weak kept:", wk.Value() == kept, wk == weak.Make(kept))
	var wd weak.Pointer[res]
	func() {
		d := &res{name: "weakly held"}
		wd = weak.Make(d)
		fmt.Println("weak before:", wd.Value().name)
	}()
	runtime.GC()
	fmt.Println("weak after:", wd.Value() == nil, wk.Value() == kept)
	runtime.KeepAlive(kept)
}
