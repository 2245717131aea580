package warn_test

import (
	"testing"

	"github.com/gmc-go/gmc/abstract/warn"
	"golang.org/x/tools/go/analysis/analysistest"
)

func TestAnalyzers(t *testing.T) {
	for _, a := range warn.Analyzers {
		t.Run(a.Name, func(t *testing.T) {
			analysistest.Run(t, analysistest.TestData(), a, a.Name)
		})
	}
}
