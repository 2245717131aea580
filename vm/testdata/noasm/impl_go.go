//go:build !amd64 || noasm

package main

func impl() string { return "go" }
