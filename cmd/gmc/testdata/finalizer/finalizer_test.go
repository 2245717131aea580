package finalizer

import "testing"

func TestNew(t *testing.T) { New(1) }
