// Package testflags reads testing's flags back, as testify's suite does
// (flag.Lookup("test.failfast")).
package testflags

import (
	"flag"
	"testing"
)

func TestFlags(t *testing.T) {
	failFast := flag.Lookup("test.failfast").Value.(flag.Getter).Get().(bool)
	short := flag.Lookup("test.short").Value.String()
	timeout := flag.Lookup("test.timeout").Value.String()
	if failFast || short != "true" || timeout != "0s" || flag.Lookup("test.v") == nil || flag.Lookup("test.run") == nil {
		t.Errorf("failfast %v short %s timeout %s", failFast, short, timeout)
	}
}
