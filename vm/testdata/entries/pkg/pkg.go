// Package pkg registers two functions by name and has tests.
package pkg

var table = map[string]func(){}

func register(name string, f func()) { table[name] = f }

func init() {
	register("Alpha", Alpha)
	register("Beta", Beta)
}

func Alpha() {}

func Beta() {}

// Gamma is niladic but not registered: not an entry.
func Gamma() {}
