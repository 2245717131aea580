// Command nested calls into two packages of its own that have a file of
// the same name (targets outside the root package, ambiguous names).
package main

import (
	"github.com/gmc-go/gmc/abstract/testdata/nested/inner"
	"github.com/gmc-go/gmc/abstract/testdata/nested/other"
)

func main() {
	inner.Add(1)
	other.Add(2)
}
