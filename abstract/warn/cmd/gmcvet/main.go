// Command gmcvet runs gmc's warning analyzers as a vet tool:
//
//	go build -o gmcvet ./abstract/warn/cmd/gmcvet
//	go vet -vettool=$(pwd)/gmcvet ./...
package main

import (
	"github.com/gmc-go/gmc/abstract/warn"
	"golang.org/x/tools/go/analysis/unitchecker"
)

func main() { unitchecker.Main(warn.Analyzers...) }
