//go:build amd64 && !noasm

package main

func which() int64

func impl() string {
	if which() == 1 {
		return "asm"
	}
	return "?"
}
