// Command embed prints what its //go:embed variables hold: a string, a
// []byte and an embed.FS over a directory (files starting with "." or "_"
// left out, as the go command does).
package main

import (
	"embed"
	"fmt"
	"io/fs"
)

//go:embed hello.txt
var hello string

//go:embed hello.txt
var helloBytes []byte

//go:embed files
var files embed.FS

//go:embed all:files/_skip.txt "hello.txt"
var two embed.FS

func main() {
	fmt.Printf("%q %q\n", hello, helloBytes)
	fs.WalkDir(files, ".", func(path string, d fs.DirEntry, err error) error {
		fmt.Println(path, d.IsDir(), err)
		return nil
	})
	b, err := files.ReadFile("files/sub/b.txt")
	fmt.Printf("%q %v\n", b, err)
	_, err = files.ReadFile("files/_skip.txt")
	fmt.Println(err)
	entries, _ := two.ReadDir(".")
	for _, e := range entries {
		fmt.Println(e.Name(), e.IsDir())
	}
	s, err := fs.ReadFile(two, "files/_skip.txt")
	fmt.Printf("%q %v\n", s, err)
}
