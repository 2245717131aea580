// Package skipmain_test: a test run by TestMain's m.Run that skips is
// SKIP, as go test reports it.
package skipmain_test

import (
	"os"
	"testing"
)

func TestMain(m *testing.M) { os.Exit(m.Run()) }

func TestSkipUnderMain(t *testing.T) { t.Skip("skipped under TestMain") }

func TestPassUnderMain(t *testing.T) {}
