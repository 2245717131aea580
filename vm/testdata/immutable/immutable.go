// Package immutable has globals that are never written after
// initialization and globals that are (vm TestImmutableGlobals).
package immutable

import (
	"fmt"
	"strings"
	"unicode"
)

type row struct {
	name string
	n    int
}

type node struct {
	next *node
	v    int
}

var (
	cases   = []row{{"a", 1}, {"b", 2}}                  // only read
	table   = map[string]string{"x": "y"}                // only read
	counter int                                          // written by Bump
	list                                  = &node{v: 1}  // its node's field is written through a *node
	limits                                = [2]int{1, 2} // its address is passed to fill
	anyVal  any                           = 3            // an interface
	rows                                  = []float64{3} // an element is written by Set
)

func Bump() { counter++ }

func Link(n *node) { n.v = 2 }

func fill(p *[2]int) { p[0] = 0 }

func Fill() { fill(&limits) }

func Set() { rows[0] = 4 }

func Read() string {
	var b strings.Builder
	for _, c := range cases {
		fmt.Fprint(&b, c.name, c.n, table["x"], unicode.IsUpper('A'), len(unicode.Categories), list.v, anyVal)
	}
	return b.String()
}
