// Command symlinks makes symbolic links in a temporary directory and uses
// them as k8s.io/utils' path and trace tests do (os.Symlink, os.Readlink,
// os.Lstat, reading and writing through a link, a link to a directory,
// filepath.EvalSymlinks, a listing, rename and removal, a dangling link
// and a loop, os.Chdir into a link and relative paths from there), printing
// what it sees without the directory's name.
package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

func main() {
	dir, err := os.MkdirTemp("", "symlinks")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer os.RemoveAll(dir)
	at := func(name string) string { return filepath.Join(dir, name) }
	short := func(err error) string {
		if err == nil {
			return "<nil>"
		}
		return strings.ReplaceAll(err.Error(), dir, "DIR")
	}
	fmt.Println(os.WriteFile(at("file"), []byte("hello"), 0o644))
	fmt.Println(short(os.Symlink("file", at("link"))))
	target, err := os.Readlink(at("link"))
	fmt.Println(target, short(err))
	li, err := os.Lstat(at("link"))
	fmt.Println(li.Mode()&fs.ModeSymlink != 0, li.Mode().IsRegular(), short(err))
	si, err := os.Stat(at("link"))
	fmt.Println(si.Mode().IsRegular(), si.Size(), short(err))
	b, err := os.ReadFile(at("link"))
	fmt.Println(string(b), short(err))
	fmt.Println(short(os.WriteFile(at("link"), []byte("bye"), 0o644)))
	b, _ = os.ReadFile(at("file"))
	li, _ = os.Lstat(at("link"))
	fmt.Println(string(b), li.Mode()&fs.ModeSymlink != 0)
	fmt.Println(short(os.Symlink("file", at("link"))))
	fmt.Println(short(os.Mkdir(at("sub"), 0o755)), short(os.Symlink(at("sub"), at("sublink"))))
	fmt.Println(short(os.WriteFile(at("sublink/inner"), []byte("x"), 0o644)))
	b, err = os.ReadFile(at("sub/inner"))
	fmt.Println(string(b), short(err))
	real, err := filepath.EvalSymlinks(at("sublink/inner"))
	fmt.Println(strings.TrimPrefix(real, dir), short(err))
	des, _ := os.ReadDir(dir)
	for _, de := range des {
		fmt.Println(de.Name(), de.Type()&fs.ModeSymlink != 0, de.IsDir())
	}
	fmt.Println(short(os.Rename(at("link"), at("moved"))))
	target, err = os.Readlink(at("moved"))
	fmt.Println(target, short(err))
	fmt.Println(short(os.Remove(at("moved"))))
	_, err = os.Stat(at("file"))
	fmt.Println(short(err))
	fmt.Println(short(os.Symlink("missing", at("dangling"))))
	_, err = os.Stat(at("dangling"))
	fmt.Println(errors.Is(err, fs.ErrNotExist), short(err))
	_, err = os.Lstat(at("dangling"))
	fmt.Println(short(err))
	fmt.Println(short(os.Symlink("loop2", at("loop1"))), short(os.Symlink("loop1", at("loop2"))))
	_, err = os.Stat(at("loop1"))
	fmt.Println(short(err))
	_, err = os.Readlink(at("file"))
	fmt.Println(short(err))
	// a working directory reached through a link, relative paths from it
	wd, _ := os.Getwd()
	fmt.Println(short(os.Chdir(at("sublink"))))
	now, err := os.Getwd()
	fmt.Println(strings.TrimPrefix(now, dir), short(err))
	b, err = os.ReadFile("inner")
	fmt.Println(string(b), short(err))
	fmt.Println(short(os.WriteFile("made", []byte("y"), 0o600)))
	b, err = os.ReadFile(at("sub/made"))
	fmt.Println(string(b), short(err))
	fmt.Println(short(os.Chdir(at("file"))), short(os.Chdir(at("missing"))))
	fmt.Println(short(os.Chdir(wd)))
	_, err = os.Stat("inner")
	fmt.Println(errors.Is(err, fs.ErrNotExist))
}
