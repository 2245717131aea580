package cgo

import "testing"

func TestCounter(t *testing.T) {
	if Counter() != 1 {
		t.Fatal("counter")
	}
}

func TestSetCounter(t *testing.T) {
	SetCounter(5)
	if Counter() != 5 {
		t.Fatal("set counter")
	}
}

func TestAdd(t *testing.T) {
	if Add(1) != 2 {
		t.Fatal("add")
	}
}

func TestTwice(t *testing.T) {
	if Twice(2) != 4 {
		t.Fatal("twice")
	}
}
