package main

import (
	"crypto/rand"
	"fmt"
	"io"
)

// crypto/rand's Reader and Read give bytes, different at each read
// (go-datastructures' btree/immutable names its nodes with them).
func init() { cases["cryptorand"] = cryptoRand }

func cryptoRand() {
	a, b := make([]byte, 16), make([]byte, 16)
	n, err := io.ReadFull(rand.Reader, a)
	m, err2 := rand.Read(b)
	fmt.Println(n, err, m, err2, string(a) != string(b))
}
