package xtestmain

import "testing"

func TestInternal(t *testing.T) {
	if Two() != 2 {
		t.Fatal("Two")
	}
}
